// The sample event `meal-notifier send-test` delivers: a made-up order (or prep summary, or prep_changed) in
// the exact shape of a real event, so a subscriber sees what poll would send it, yet marked as a test no one can miss: an
// id starting with `test-`, `data.test: true`, and an order's reference starting with `TEST-`. Pure; the
// caller gives the time and a fresh UUID.
import { addDays } from '../time/calendarDate.js';
import { DEFAULT_HIGHLIGHT_WORDS, flaggedFirst, isFlaggedNote } from './noteHighlights.js';
import type { NotifierEvent } from './notifierEvent.js';
import type { Change, OrderEventType as EventType, OrderEvent, OrderLine } from './orderEvent.js';
import { PREP_CHANGED_EVENT_TYPE, type PrepChangedEvent } from './prepChangedEvent.js';
import { PREP_SUMMARY_EVENT_TYPE, type PrepSummaryEvent } from './prepSummaryEvent.js';

export const SAMPLE_EVENT_ID_PREFIX = 'test-';
export const SAMPLE_REFERENCE_PREFIX = 'TEST-';

/** A sample order's reference, `TEST-4F2A` from its nonce; the n-th of several, `TEST-4F2A-2`. */
function sampleReference(nonce: string, n?: number): string {
  const reference = `${SAMPLE_REFERENCE_PREFIX}${nonce.slice(0, 4).toUpperCase()}`;
  return n === undefined ? reference : `${reference}-${n}`;
}

/** The sample's establishment when none is given: a well-formed uuid that no API hands out. */
const SAMPLE_ESTABLISHMENT = {
  uuid: '00000000-0000-4000-8000-000000000000',
  name: 'Sample establishment',
} as const;

export interface SampleEventInput {
  type: EventType;
  /** `timeZone` becomes an order event's `organization.time_zone`. */
  organization: { id: string; name: string; timeZone?: string };
  /** The CloudEvents `source`, as the organization's real events have it. */
  source: string;
  /** Epoch milliseconds: the event's `time`, and the transition's time in `changes`. */
  now: number;
  /** The pickup date, `YYYY-MM-DD`: today in the organization's zone reads most naturally. */
  pickupDate: string;
  /** A fresh UUID: the order's uuid, and the event id after `test-`. */
  nonce: string;
  /** @default a sample establishment */
  establishment?: { uuid: string; name: string };
  /** @default 'card' */
  paymentMethod?: string;
}

/** What the sample order's status is after each kind of transition, and what it was before. */
const TRANSITIONS: Record<
  EventType,
  { from: string | null; to: string; stamp?: 'completed_at' | 'canceled_at' }
> = {
  'order.created': { from: null, to: 'pending' },
  'order.completed': { from: 'pending', to: 'completed', stamp: 'completed_at' },
  'order.canceled': { from: 'pending', to: 'canceled', stamp: 'canceled_at' },
  'order.archived': { from: 'completed', to: 'archived' },
  // One documented case for this type: a status the spec does not list.
  'order.status_changed': { from: 'pending', to: 'preparing' },
  // Moved to this pickup date from the day before; the status stays.
  'order.rescheduled': { from: 'pending', to: 'pending' },
  // A second orange juice and an allergy note added; the status stays.
  'order.updated': { from: 'pending', to: 'pending' },
};

/** The sample's customer and parent: well-formed uuids that no API hands out, as real events have them. */
const SAMPLE_PUPIL_UUID = '00000000-0000-4000-8000-000000000001';
const SAMPLE_PARENT_UUID = '00000000-0000-4000-8000-000000000002';
const SAMPLE_ORDER_NOTE = 'Allergic to peanuts: no nuts at all, please.';
const SAMPLE_MONEY = (amount: string) => ({ amount, currency: 'EUR', formatted: `€${amount}` });

export function sampleEvent(input: SampleEventInput): OrderEvent {
  const { type, nonce } = input;
  const transition = TRANSITIONS[type];
  const establishment = input.establishment ?? { ...SAMPLE_ESTABLISHMENT };
  const time = new Date(input.now).toISOString();
  return {
    ...sampleEnvelope(input, type, nonce),
    data: {
      test: true,
      organization: {
        id: input.organization.id,
        name: input.organization.name,
        ...(input.organization.timeZone === undefined ? {} : { time_zone: input.organization.timeZone }),
      },
      order: {
        uuid: nonce,
        reference: sampleReference(nonce),
        status: transition.to,
        pickup_date: input.pickupDate,
        establishment,
        customer: {
          uuid: SAMPLE_PUPIL_UUID,
          name: 'Sample Pupil',
          class: '5B',
          // Contact details as real events carry them, so includeContactDetails shows its effect.
          parent: {
            uuid: SAMPLE_PARENT_UUID,
            name: 'Sample Parent',
            email: 'parent@example.org',
            phone: '+1 555 0100',
          },
        },
        currency: 'EUR',
        subtotal: SAMPLE_MONEY('4.50'),
        total: SAMPLE_MONEY('4.50'),
        payment_method: input.paymentMethod ?? 'card',
        notes: SAMPLE_ORDER_NOTE,
        created_at: time,
        updated_at: time,
        canceled_at: transition.stamp === 'canceled_at' ? time : null,
        completed_at: transition.stamp === 'completed_at' ? time : null,
        can_be_cancelled: transition.to === 'pending',
        items: [
          sampleLine(
            `${nonce.slice(0, 8)}-0000-4000-8000-000000000001`,
            'SAMPLE-MEAL',
            'Sample meal',
            1,
            '2.50',
            'Cut in small pieces',
            time,
          ),
          sampleLine(
            `${nonce.slice(0, 8)}-0000-4000-8000-000000000002`,
            'SAMPLE-JUICE',
            'Orange juice',
            2,
            '1.00',
            null,
            time,
          ),
        ],
      },
      changes: sampleChanges(type, input.pickupDate, establishment.uuid, time),
    },
  };
}

export type SamplePrepSummaryInput = Omit<SampleEventInput, 'type' | 'paymentMethod'> & {
  /** The organization's words, which flag the sample's notes as a real summary's. @default DEFAULT_HIGHLIGHT_WORDS */
  highlightWords?: readonly string[];
};

/**
 * A made-up prep summary in the exact shape of a real one, marked as a test: an id starting with `test-`
 * (a real summary's id is deterministic, and a sample must never take it) and `data.test: true`.
 */
export function samplePrepSummary(input: SamplePrepSummaryInput): PrepSummaryEvent {
  const establishment = input.establishment ?? { ...SAMPLE_ESTABLISHMENT };
  const time = new Date(input.now).toISOString();
  const words = input.highlightWords ?? DEFAULT_HIGHLIGHT_WORDS;
  const notes = flaggedFirst(
    [
      { reference: sampleReference(input.nonce, 2), class: null, note: 'Cut in small pieces' },
      {
        reference: sampleReference(input.nonce, 1),
        class: '5B',
        item: { sku: 'SAMPLE-MEAL', name: 'Sample meal' },
        note: SAMPLE_ORDER_NOTE,
      },
    ].map((note) => ({ ...note, flagged: isFlaggedNote(note.note, words) })),
  );
  return {
    ...sampleEnvelope(input, PREP_SUMMARY_EVENT_TYPE, establishment.uuid),
    data: {
      test: true,
      organization: { id: input.organization.id, name: input.organization.name },
      establishment,
      pickup_date: input.pickupDate,
      closed_at: time,
      orders: 3,
      items: [
        { sku: 'SAMPLE-MEAL', name: 'Sample meal', quantity: 3 },
        { sku: 'SAMPLE-JUICE', name: 'Orange juice', quantity: 2 },
      ],
      classes: [
        { class: '5B', orders: 2 },
        { class: null, orders: 1 },
      ],
      canceled_before_closing: 1,
      notes,
      complete: true,
    },
  };
}

/**
 * A made-up prep_changed in the exact shape of a real one, marked as a test as the summary's sample is: a
 * juice fewer and a meal more since a summary closed an hour before `now`, and the two orders behind them.
 */
export function samplePrepChanged(input: SamplePrepSummaryInput): PrepChangedEvent {
  const establishment = input.establishment ?? { ...SAMPLE_ESTABLISHMENT };
  return {
    ...sampleEnvelope(input, PREP_CHANGED_EVENT_TYPE, establishment.uuid),
    data: {
      test: true,
      organization: { id: input.organization.id, name: input.organization.name },
      establishment,
      pickup_date: input.pickupDate,
      // A sample summary's id is a test id too, never a real summary's.
      summary_id: `${SAMPLE_EVENT_ID_PREFIX}summary-${input.nonce}`,
      summary_closed_at: new Date(input.now - 3_600_000).toISOString(),
      items: [
        { sku: 'SAMPLE-JUICE', name: 'Orange juice', from: 2, to: 1 },
        { sku: 'SAMPLE-MEAL', name: 'Sample meal', from: 3, to: 4 },
      ],
      orders: [
        {
          uuid: `${input.nonce.slice(0, 8)}-0000-4000-8000-000000000011`,
          reference: sampleReference(input.nonce, 1),
          change: 'created',
        },
        {
          uuid: `${input.nonce.slice(0, 8)}-0000-4000-8000-000000000012`,
          reference: sampleReference(input.nonce, 2),
          change: 'updated',
          notes_changed: true,
        },
      ],
    },
  };
}

/** True for the sample send-test sends: formats show a visible TEST marker for it. */
export function isSampleEvent(event: NotifierEvent): boolean {
  return event.data.test === true;
}

/** The changes the diff engine lists for the same transition of a real order. */
function sampleChanges(type: EventType, pickupDate: string, establishment: string, time: string): Change[] {
  const { from, to, stamp } = TRANSITIONS[type];
  if (type === 'order.created') {
    return [
      { field: 'status', from: null, to },
      { field: 'pickup_date', from: null, to: pickupDate },
      { field: 'establishment', from: null, to: establishment },
    ];
  }
  if (type === 'order.rescheduled') {
    return [{ field: 'pickup_date', from: addDays(pickupDate, -1), to: pickupDate }];
  }
  if (type === 'order.updated') {
    return [
      { field: 'items', sku: 'SAMPLE-JUICE', name: 'Orange juice', from: 1, to: 2 },
      { field: 'notes', from: null, to: SAMPLE_ORDER_NOTE },
    ];
  }
  const changes: Change[] = [{ field: 'status', from, to }];
  if (stamp) changes.push({ field: stamp, from: null, to: time });
  return changes;
}

function sampleLine(
  uuid: string,
  sku: string,
  name: string,
  quantity: number,
  price: string,
  notes: string | null,
  time: string,
): OrderLine {
  return {
    uuid,
    sku,
    name,
    description: null,
    price: SAMPLE_MONEY(price),
    quantity,
    total: SAMPLE_MONEY((Number(price) * quantity).toFixed(2)),
    image: '',
    notes,
    fulfilled_quantity: 0,
    fulfillment_status: 'unfulfilled',
    is_menu: true,
    status: 'pending',
    created_at: time,
  };
}

/**
 * The CloudEvents envelope of every sample: a `test-` id (never UUID-shaped, so it cannot take a real
 * event's), the organization's source, and `now` as its time.
 */
function sampleEnvelope<Type extends string>(
  input: Pick<SampleEventInput, 'nonce' | 'source' | 'now'>,
  type: Type,
  subject: string,
) {
  return {
    specversion: '1.0' as const,
    id: `${SAMPLE_EVENT_ID_PREFIX}${input.nonce}`,
    source: input.source,
    type,
    subject,
    time: new Date(input.now).toISOString(),
    datacontenttype: 'application/json' as const,
  };
}
