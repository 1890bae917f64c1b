// The line the demo and the runner print when an event is detected or a delivery attempted: what happened,
// the event's type and the order's reference in columns that line up, then the details.
import { isCatchUp } from '../../shared/events/catchUpEvent.js';
import { spanLabel } from '../../shared/events/catchUpText.js';
import { DEFAULT_HIGHLIGHT_WORDS } from '../../shared/events/noteHighlights.js';
import type { NotifierEvent } from '../../shared/events/notifierEvent.js';
import { orderNotes } from '../../shared/events/orderNotes.js';
import { prepChangedLine } from '../../shared/events/prepChangeText.js';
import { counted } from '../../shared/text/counted.js';
import { excerpt } from '../../shared/text/excerpt.js';
import { dayLabel } from '../../shared/time/dayLabel.js';
import type { Style } from './terminalStyle.js';
import { updatedChangesText } from './updatedChangesText.js';

export type Activity = 'detected' | 'delivered' | 'retrying' | 'failed' | 'folded';

const ACTIVITY_WIDTH = 'delivered'.length;
const TYPE_WIDTH = 'completed'.length;
/** Columns line up for the simulator's references and establishment names; longer ones just push on. */
const REFERENCE_WIDTH = 'NS-1000'.length;
export const ESTABLISHMENT_WIDTH = 'Staff Room Counter'.length;
/** A new order's flagged note is cut here: a line, not a paragraph. */
const FLAGGED_NOTE_WIDTH = 60;

const ACTIVITY_COLOUR: Record<Activity, keyof Style> = {
  detected: 'cyan',
  delivered: 'green',
  retrying: 'yellow',
  failed: 'red',
  folded: 'yellow',
};

/** `detected   created    NS-1064  …details`, the details two spaces apart. */
export function activityLine(
  style: Style,
  activity: Activity,
  eventType: string,
  reference: string,
  details: readonly string[],
): string {
  const label = style[ACTIVITY_COLOUR[activity]](activity.padEnd(ACTIVITY_WIDTH));
  return [label, colourType(eventType, style), reference.padEnd(REFERENCE_WIDTH), ...details]
    .join('  ')
    .trimEnd();
}

/** `order.created` as `created`: the columns say it is an order. */
export function shortType(type: string): string {
  return type.replace(/^(?:order|establishment)\./, '');
}

function colourType(type: string, style: Style): string {
  const text = shortType(type).padEnd(TYPE_WIDTH);
  if (type === 'order.created') return style.bold(text);
  if (type === 'order.canceled') return style.red(text);
  if (type === 'order.completed') return style.green(text);
  return text;
}

/** `120 ms` below a second, `1.4 s` above. */
export function formatLatency(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The reference column and the first details of an event: an order's reference and establishment (and
 * "after closing" when it is late, and what an update changed), or the establishment a prep summary is for
 * and what it counts, or what a prep_changed changes in it, or how many changes a catch-up stands for.
 * @param highlightWords the words of the event's organization that mark a changed note
 */
export function eventColumns(
  event: NotifierEvent,
  style: Style,
  highlightWords: readonly string[] = DEFAULT_HIGHLIGHT_WORDS,
): [reference: string, details: string[]] {
  if (event.type === 'establishment.prep_summary') {
    const { establishment, orders, pickup_date, complete } = event.data;
    const count = `${counted(orders, 'order')} for ${dayLabel(pickup_date)}`;
    return [establishment.name, [`${count}${complete ? '' : ' (incomplete)'}`]];
  }
  if (event.type === 'establishment.prep_changed') {
    const { establishment, pickup_date } = event.data;
    return [establishment.name, [`${dayLabel(pickup_date)}: ${prepChangedLine(event)}`]];
  }
  if (isCatchUp(event)) {
    const { data } = event;
    return [
      'catch-up',
      [`${counted(data.events, 'change')}, ${spanLabel(data.first_change_at, data.last_change_at)}`],
    ];
  }
  const { order, after_closing } = event.data;
  const details = [order.establishment.name.padEnd(ESTABLISHMENT_WIDTH)];
  if (after_closing) details.push(style.yellow('after closing'));
  if (event.type === 'order.updated') {
    const changed = updatedChangesText(event.data.changes, highlightWords, style);
    if (changed !== undefined) details.push(changed);
  } else if (event.type === 'order.created') {
    // A new order's allergy or diet, where the kitchen first sees the order; other notes wait for Slack.
    const flagged = orderNotes(order, highlightWords).filter((note) => note.flagged);
    const [first] = flagged;
    if (first) {
      const more = flagged.length > 1 ? ` +${flagged.length - 1} more` : '';
      details.push(style.red(`🚨 ${excerpt(first.note, FLAGGED_NOTE_WIDTH)}${more}`));
    }
  }
  return [order.reference, details];
}
