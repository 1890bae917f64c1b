// The e-mail a catch-up becomes (pure): one message instead of a backlog of stale ones. A subject with the
// count and the span, why they come together, the counts by type and by establishment, the orders changed
// after closing and the flagged notes; a text part that lines up in a fixed-width font and an HTML part,
// every value escaped.
import type { CatchUpEvent } from '../../events/catchUpEvent.js';
import { catchUpReason, changesCounted, spanLabel, typeLabel } from '../../events/catchUpText.js';
import { isSampleEvent } from '../../events/sampleEvent.js';
import { counted } from '../../text/counted.js';
import { dayLabel } from '../../time/dayLabel.js';
import {
  type EmailMessage,
  escapeHtml,
  eventFooter,
  HTML_STYLES,
  htmlDocument,
  htmlNotice,
  SAMPLE_SUBJECT_PREFIX,
  singleLine,
} from './emailText.js';
import { htmlTable, textTable } from './prepSummaryEmail.js';

type Row = readonly string[];

const NAME_COLUMN_MAX = 40;

const SAMPLE_NOTICE = 'TEST: sent by meal-notifier send-test to try this address. It is not a real catch-up.';

/** e.g. "Catch-up: 42 changes at North School, 10:02–10:19"; "[TEST] " in front for a sample. */
export function catchUpSubject(event: CatchUpEvent): string {
  const { data } = event;
  const subject = `Catch-up: ${changesCounted(data)} at ${singleLine(data.organization.name)}, ${spanLabel(data.first_change_at, data.last_change_at)}`;
  return isSampleEvent(event) ? `${SAMPLE_SUBJECT_PREFIX}${subject}` : subject;
}

export function formatCatchUpEmail(event: CatchUpEvent): EmailMessage {
  const subject = catchUpSubject(event);
  const { data } = event;
  const reason = singleLine(catchUpReason(data));
  const byType: Row[] = data.by_type.map(({ name, count }) => [typeLabel(name), String(count)]);
  const byEstablishment: Row[] = data.by_establishment.map(({ name, count }) => [
    singleLine(name),
    String(count),
  ]);
  const afterClosing: Row[] = data.after_closing.map((line) => [
    singleLine(line.reference),
    typeLabel(line.type),
    singleLine(line.establishment),
    dayLabel(singleLine(line.pickup_date)),
  ]);
  const notes: Row[] = data.notes.map((line) => [
    singleLine(line.reference),
    singleLine(line.customer),
    singleLine(line.establishment),
    dayLabel(singleLine(line.pickup_date)),
    singleLine(line.notes.join(' · ')),
  ]);
  const more = (total: number, shown: number) =>
    total > shown ? [`  …and ${counted(total - shown, 'more order')}`] : [];
  const afterClosingHeading = ['Reference', 'Change', 'Establishment', 'Pickup'] as const;
  const notesHeading = ['Reference', 'Customer', 'Establishment', 'Pickup', 'Notes'] as const;
  const sample = isSampleEvent(event) ? [SAMPLE_NOTICE, ''] : [];
  const text = [
    ...sample,
    reason,
    '',
    'By type:',
    ...textTable(['Change', 'Count'], byType, ['left', 'right'], [NAME_COLUMN_MAX]),
    '',
    'By establishment:',
    ...textTable(['Establishment', 'Count'], byEstablishment, ['left', 'right'], [NAME_COLUMN_MAX]),
    ...(data.after_closing_count === 0
      ? []
      : [
          '',
          `After closing (${data.after_closing_count}), not in the prep summary already sent:`,
          ...textTable(
            afterClosingHeading,
            afterClosing,
            ['left', 'left', 'left', 'left'],
            [undefined, undefined, NAME_COLUMN_MAX],
          ),
          ...more(data.after_closing_count, afterClosing.length),
        ]),
    ...(data.notes_count === 0
      ? []
      : [
          '',
          `Notes to read (${data.notes_count}):`,
          ...textTable(
            notesHeading,
            notes,
            ['left', 'left', 'left', 'left', 'left'],
            [undefined, NAME_COLUMN_MAX, NAME_COLUMN_MAX],
          ),
          ...more(data.notes_count, notes.length),
        ]),
    '',
    'Each change is in meal-notifier events; webhook subscribers got every one.',
    eventFooter(event),
  ].join('\n');
  const heading = (title: string) => `<h2 style="${HTML_STYLES.heading}">${escapeHtml(title)}</h2>\n`;
  const moreHtml = (total: number, shown: number) =>
    total > shown ? `<p>${escapeHtml(`…and ${counted(total - shown, 'more order')}`)}</p>\n` : '';
  const html = htmlDocument(
    subject,
    [
      isSampleEvent(event) ? htmlNotice(SAMPLE_NOTICE) : '',
      `<p>${escapeHtml(reason)}</p>\n`,
      heading('By type'),
      htmlTable(['Change', 'Count'], byType, [false, true]),
      heading('By establishment'),
      htmlTable(['Establishment', 'Count'], byEstablishment, [false, true]),
      data.after_closing_count === 0
        ? ''
        : heading(`After closing (${data.after_closing_count}), not in the prep summary already sent`) +
          htmlTable(afterClosingHeading, afterClosing, [false, false, false, false]) +
          moreHtml(data.after_closing_count, afterClosing.length),
      data.notes_count === 0
        ? ''
        : heading(`Notes to read (${data.notes_count})`) +
          htmlTable(notesHeading, notes, [false, false, false, false, false]) +
          moreHtml(data.notes_count, notes.length),
      `<p>${escapeHtml('Each change is in meal-notifier events; webhook subscribers got every one.')}</p>\n`,
    ].join(''),
    event,
  );
  return { subject, text: `${text}\n`, html };
}
