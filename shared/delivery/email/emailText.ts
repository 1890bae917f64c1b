// Text as e-mail takes it, for every kind of event: values on one line (a line break in a subject would
// start a new mail header), HTML escaping, the inline styles mail clients keep, the labelled fields and
// highlighted notices an e-mail opens with, the notes (an allergy or a diet marked), and the footer naming
// the event.
import { isCatchUp } from '../../events/catchUpEvent.js';
import { type DigestEvent, isDigest } from '../../events/digestEvent.js';
import { isEstablishmentEvent, type NotifierEvent } from '../../events/notifierEvent.js';

/** An e-mail as every formatter makes it, for the SMTP sender and the SNS e-mail body alike. */
export interface EmailMessage {
  /** One line, without CR/LF, so it can never smuggle another header in. */
  subject: string;
  text: string;
  html: string;
}

/**
 * Control characters (CR and LF above all) become spaces and runs of white space one space: the values
 * come from the API, and a line break in a subject would start a new mail header.
 */
export function singleLine(text: string): string {
  return text
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Every user-provided string goes through this before it reaches the HTML part. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char] ?? char);
}

/** The event's identity, so a reader can match the mail with a webhook delivery or a log line. */
export function eventFooter(event: NotifierEvent | DigestEvent): string {
  const when =
    isDigest(event) || isCatchUp(event) ? 'built' : isEstablishmentEvent(event) ? 'recorded' : 'detected';
  return singleLine(`Event ${event.type} ${event.id}, ${when} ${event.time}.`);
}

const CELL_BOX = 'padding:4px 12px 4px 0;vertical-align:top';

/** Inline styles only: mail clients drop style sheets. */
/** In front of a sample's subject, so that neither an inbox nor a mail filter takes it for a real one. */
export const SAMPLE_SUBJECT_PREFIX = '[TEST] ';

export const HTML_STYLES = {
  cell: `${CELL_BOX};text-align:left`,
  numberCell: `${CELL_BOX};text-align:right`,
  heading: 'font-size:15px;margin:20px 0 6px',
  warning: 'background:#fff4e5;border-left:4px solid #e8a33d;padding:8px 12px;margin:0 0 12px',
  /** A note that names an allergy or a diet: its row stands out. */
  flaggedRow: 'background:#fdecea',
  flag: 'color:#b00020;font-weight:bold;white-space:nowrap',
} as const;

/** What marks a note that names an allergy or a diet (noteHighlights.ts), in the text part and the HTML. */
export const FLAG_LABEL = 'ALLERGY/DIET';

/** A note as an e-mail lists it: what it is on ("Order", an item, a reference) and the note. */
export interface EmailNote {
  label: string;
  note: string;
  flagged: boolean;
}

/** "[ALLERGY/DIET] Order: Allergic to eggs", "Lasagne: extra sauce": one line each, in the order given. */
export function textNotes(notes: readonly EmailNote[]): string[] {
  return notes.map(
    ({ label, note, flagged }) =>
      `${flagged ? `[${FLAG_LABEL}] ` : ''}${singleLine(label)}: ${singleLine(note)}`,
  );
}

/** The notes as an HTML table: a flagged note's row highlighted and marked ALLERGY/DIET. */
export function htmlNotes(notes: readonly EmailNote[]): string {
  const rows = notes.map(({ label, note, flagged }) => {
    const flag = flagged ? `<span style="${HTML_STYLES.flag}">${FLAG_LABEL}</span>` : '';
    return (
      `<tr${flagged ? ` style="${HTML_STYLES.flaggedRow}"` : ''}>` +
      `<td style="${HTML_STYLES.cell}">${flag}</td>` +
      `<th style="${HTML_STYLES.cell};font-weight:bold">${escapeHtml(singleLine(label))}</th>` +
      `<td style="${HTML_STYLES.cell}">${escapeHtml(singleLine(note))}</td></tr>`
    );
  });
  return `<table style="border-collapse:collapse">\n${rows.join('\n')}\n</table>\n`;
}

/** A labelled value: one row of the fields an e-mail opens with. */
export type EmailField = readonly [label: string, value: string];

/** The fields as text lines, each value starting `labelWidth` characters in, so the values line up. */
export function textFields(fields: readonly EmailField[], labelWidth: number): string[] {
  return fields.map(([label, value]) => `${`${label}:`.padEnd(labelWidth)}${value}`);
}

/** The fields as an HTML table: the labels in grey, each value beside its label. */
export function htmlFields(fields: readonly EmailField[]): string {
  const rows = fields
    .map(
      ([label, value]) =>
        `<tr><th style="${HTML_STYLES.cell};color:#555;font-weight:normal">${escapeHtml(label)}</th>` +
        `<td style="${HTML_STYLES.cell}">${escapeHtml(value)}</td></tr>`,
    )
    .join('\n');
  return `<table style="border-collapse:collapse">\n${rows}\n</table>\n`;
}

/** A paragraph that stands out above the fields: a sample's notice, or a warning about the content. */
export function htmlNotice(text: string): string {
  return `<p style="${HTML_STYLES.warning}">${escapeHtml(text)}</p>\n`;
}

/** The whole HTML part around `body`, with `title` (already plain text) as its heading. */
export function htmlDocument(title: string, body: string, event: NotifierEvent | DigestEvent): string {
  return (
    '<!DOCTYPE html>\n<html>\n<head><meta charset="utf-8"></head>\n' +
    '<body style="font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#222">\n' +
    `<h1 style="font-size:18px;margin:0 0 12px">${escapeHtml(title)}</h1>\n` +
    body +
    `<p style="color:#777;font-size:12px;margin-top:20px">${escapeHtml(eventFooter(event))}</p>\n` +
    '</body>\n</html>\n'
  );
}
