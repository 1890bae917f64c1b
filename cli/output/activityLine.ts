// The line the demo and the runner print when an event is detected or a delivery attempted: what happened,
// the event's type and the order's reference in columns that line up, then the details.
import { isCatchUp } from '../../shared/events/catchUpEvent.js';
import { spanLabel } from '../../shared/events/catchUpText.js';
import type { NotifierEvent } from '../../shared/events/notifierEvent.js';
import { counted } from '../../shared/text/counted.js';
import { dayLabel } from '../../shared/time/dayLabel.js';
import type { Style } from './terminalStyle.js';

export type Activity = 'detected' | 'delivered' | 'retrying' | 'failed' | 'folded';

const ACTIVITY_WIDTH = 'delivered'.length;
const TYPE_WIDTH = 'completed'.length;
/** Columns line up for the simulator's references and establishment names; longer ones just push on. */
const REFERENCE_WIDTH = 'NS-1000'.length;
export const ESTABLISHMENT_WIDTH = 'Staff Room Counter'.length;

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
 * "after closing" when it is late), the establishment a prep summary is for and what it counts, or how
 * many changes a catch-up stands for.
 */
export function eventColumns(event: NotifierEvent, style: Style): [reference: string, details: string[]] {
  if (event.type === 'establishment.prep_summary') {
    const { establishment, orders, pickup_date, complete } = event.data;
    const count = `${counted(orders, 'order')} for ${dayLabel(pickup_date)}`;
    return [establishment.name, [`${count}${complete ? '' : ' (incomplete)'}`]];
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
  return [order.reference, details];
}
