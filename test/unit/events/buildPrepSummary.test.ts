import { describe, expect, it } from 'vitest';
import { diffOrder } from '../../../shared/detect/diffOrder.js';
import {
  buildPrepSummary,
  PREP_SUMMARY_ITEMS_MAX_BYTES,
  PREP_SUMMARY_NOTE_MAX_CHARS,
  PREP_SUMMARY_NOTES_MAX_BYTES,
} from '../../../shared/events/buildPrepSummary.js';
import { PrepSummaryInputError } from '../../../shared/events/errors.js';
import { NotifierEventSchema } from '../../../shared/events/notifierEvent.js';
import { PrepSummaryEventSchema } from '../../../shared/events/prepSummaryEvent.js';
import { diffContext, laterOrder, ORGANIZATION, SOURCE, statusOf } from '../../support/detectFixtures.js';
import {
  CLOSED_AT,
  MAIN_CANTEEN,
  makePrepSummary,
  type OrderSketch,
  PICKUP_DATE,
  pendingOrder,
  RECORDED_AT,
  summaryInput,
} from '../../support/prepSummaryFixtures.js';

const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function refusalOf(build: () => unknown): PrepSummaryInputError {
  try {
    build();
  } catch (error) {
    if (error instanceof PrepSummaryInputError) return error;
    throw error;
  }
  throw new Error('expected the summary to be refused');
}

describe('buildPrepSummary: the event', () => {
  it('is a CloudEvent about the establishment, from the organization’s source, valid against the contract', () => {
    const event = makePrepSummary([{ items: [['SOUP-VEG', 'Vegetable soup', 2]] }]);
    expect(event).toMatchObject({
      specversion: '1.0',
      type: 'establishment.prep_summary',
      subject: MAIN_CANTEEN.uuid,
      source: SOURCE,
      time: RECORDED_AT,
      datacontenttype: 'application/json',
    });
    expect(event.id).toMatch(UUID_V8);
    expect(PrepSummaryEventSchema.parse(event)).toEqual(event);
    expect(NotifierEventSchema.parse(event)).toEqual(event);
  });

  it('adds up a day’s orders by item, by class, and counts the cancellations', () => {
    const event = makePrepSummary(
      [
        {
          items: [
            ['SOUP-VEG', 'Vegetable soup', 2],
            ['FRUIT-APL', 'Apple', 1],
          ],
          class: '3B',
        },
        { items: [['SOUP-VEG', 'Vegetable soup', 1]], class: '4A' },
        {
          items: [
            ['PASTA-BOL', 'Pasta bolognese', 1],
            ['FRUIT-APL', 'Apple', 2],
          ],
          class: '3B',
        },
        { items: [['PASTA-BOL', 'Pasta bolognese', 1]], class: null },
      ],
      { canceledBeforeClosing: 2 },
    );
    expect(event.data).toEqual({
      organization: { ...ORGANIZATION },
      establishment: { ...MAIN_CANTEEN },
      pickup_date: PICKUP_DATE,
      closed_at: CLOSED_AT,
      orders: 4,
      items: [
        { sku: 'FRUIT-APL', name: 'Apple', quantity: 3 },
        { sku: 'SOUP-VEG', name: 'Vegetable soup', quantity: 3 },
        { sku: 'PASTA-BOL', name: 'Pasta bolognese', quantity: 2 },
      ],
      classes: [
        { class: '3B', orders: 2 },
        { class: '4A', orders: 1 },
        { class: null, orders: 1 },
      ],
      canceled_before_closing: 2,
      notes: [],
      complete: true,
    });
  });

  it('keeps two items of one name but different skus apart, and one sku under two names apart', () => {
    const event = makePrepSummary([
      {
        items: [
          ['SOUP-1', 'Soup', 1],
          ['SOUP-2', 'Soup', 2],
          ['SOUP-1', 'Soup of the day', 4],
        ],
      },
    ]);
    expect(event.data.items).toEqual([
      { sku: 'SOUP-1', name: 'Soup of the day', quantity: 4 },
      { sku: 'SOUP-2', name: 'Soup', quantity: 2 },
      { sku: 'SOUP-1', name: 'Soup', quantity: 1 },
    ]);
  });

  it('sorts items by quantity, then name, then sku, whatever order the orders came in', () => {
    const sketches = [
      {
        items: [
          ['B', 'Bread', 1],
          ['Z', 'Apple', 1],
        ] as Array<[string, string, number]>,
      },
      {
        items: [
          ['A', 'Apple', 1],
          ['C', 'Cake', 5],
        ] as Array<[string, string, number]>,
      },
    ];
    const forward = makePrepSummary(sketches).data.items;
    const backward = makePrepSummary([...sketches].reverse()).data.items;
    expect(forward.map((item) => `${item.quantity} ${item.name} ${item.sku}`)).toEqual([
      '5 Cake C',
      '1 Apple A',
      '1 Apple Z',
      '1 Bread B',
    ]);
    expect(backward).toEqual(forward);
  });

  it('leaves out an item ordered zero times: nothing to prepare is not a line', () => {
    const event = makePrepSummary([
      {
        items: [
          ['SOUP', 'Soup', 0],
          ['APL', 'Apple', 1],
        ],
      },
    ]);
    expect(event.data.items).toEqual([{ sku: 'APL', name: 'Apple', quantity: 1 }]);
  });

  it('counts an order seen twice in one walk once, with its later sighting', () => {
    const first = pendingOrder({ items: [['SOUP', 'Soup', 1]] });
    const later = laterOrder(first, {
      updated_at: '2026-11-24T10:00:00.000000Z',
      items: pendingOrder({ items: [['SOUP', 'Soup', 3]] }).items,
    });
    const event = buildPrepSummary(summaryInput({ orders: [later, first] }));
    expect(event.data.orders).toBe(1);
    expect(event.data.items).toEqual([{ sku: 'SOUP', name: 'Soup', quantity: 3 }]);
  });

  it('makes an empty summary for a day without orders', () => {
    const event = makePrepSummary([], { canceledBeforeClosing: 3 });
    expect(event.data).toMatchObject({
      orders: 0,
      items: [],
      classes: [],
      canceled_before_closing: 3,
      complete: true,
    });
  });

  it('carries no customer, parent or order data beyond the counts', () => {
    const json = JSON.stringify(makePrepSummary([{ items: [['SOUP', 'Soup', 1]] }]));
    for (const secret of ['Ana Silva', 'Rui Silva', 'parent@example.test', '+351', 'ORD-']) {
      expect(json).not.toContain(secret);
    }
  });
});

describe('buildPrepSummary: incomplete figures', () => {
  it('marks the summary incomplete with the reason, never silently wrong', () => {
    const event = makePrepSummary([{ items: [['SOUP', 'Soup', 1]] }], {
      incompleteReason: 'the pending listing failed with HTTP 500 until 10:35',
    });
    expect(event.data.complete).toBe(false);
    expect(event.data.incomplete_reason).toBe('the pending listing failed with HTTP 500 until 10:35');
  });

  it('has no incomplete_reason at all when complete', () => {
    expect(makePrepSummary([]).data).not.toHaveProperty('incomplete_reason');
  });

  it('refuses an empty reason: an incomplete summary must say why', () => {
    const error = refusalOf(() => makePrepSummary([], { incompleteReason: '  ' }));
    expect(error.message).toBe(
      `prep summary for establishment ${MAIN_CANTEEN.uuid} on ${PICKUP_DATE}: an incomplete summary needs a reason that says something`,
    );
  });

  it('cuts a menu too large for one event to its most-ordered items, and says so', () => {
    const name = 'n'.repeat(500);
    const sketches = Array.from({ length: 400 }, (_, index) => ({
      items: [[`SKU-${index}`, `${name} ${index}`, 1 + (index % 7)]] as Array<[string, string, number]>,
    }));
    const event = makePrepSummary(sketches);
    const kept = event.data.items.length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(400);
    expect(Buffer.byteLength(JSON.stringify(event.data.items))).toBeLessThanOrEqual(
      PREP_SUMMARY_ITEMS_MAX_BYTES,
    );
    expect(event.data.items.every((item) => item.quantity >= (event.data.items.at(-1)?.quantity ?? 0))).toBe(
      true,
    );
    expect(event.data.complete).toBe(false);
    expect(event.data.incomplete_reason).toBe(
      `only the ${kept} most-ordered of 400 items are listed: the whole list is larger than an event may be`,
    );
    // The counts still cover every order.
    expect(event.data.orders).toBe(400);
  });

  it('gives both reasons when the walk was cut short and the menu too', () => {
    const sketches = Array.from({ length: 400 }, (_, index) => ({
      items: [[`SKU-${index}`, `${'n'.repeat(500)} ${index}`, 1]] as Array<[string, string, number]>,
    }));
    const event = makePrepSummary(sketches, { incompleteReason: 'page 3 of 5 failed' });
    expect(event.data.incomplete_reason).toMatch(
      /^page 3 of 5 failed; only the \d+ most-ordered of 400 items/,
    );
  });
});

describe('buildPrepSummary: the id', () => {
  it('is the same for the same organization, establishment and date, whatever the figures and times', () => {
    const early = makePrepSummary([{ items: [['SOUP', 'Soup', 1]] }]);
    const late = makePrepSummary([{ items: [['SOUP', 'Soup', 5]] }, { items: [['APL', 'Apple', 1]] }], {
      time: '2026-11-24T10:34:00.000Z',
      incompleteReason: 'late',
      canceledBeforeClosing: 4,
    });
    expect(late.id).toBe(early.id);
  });

  it('does not change with the letter case of the uuids', () => {
    const shouting = makePrepSummary([], {
      organization: { ...ORGANIZATION, id: ORGANIZATION.id.toUpperCase() },
      establishment: { ...MAIN_CANTEEN, uuid: MAIN_CANTEEN.uuid.toUpperCase() },
    });
    expect(shouting.id).toBe(makePrepSummary([]).id);
  });

  it('differs for another establishment, another date or another organization', () => {
    const ids = [
      makePrepSummary([]).id,
      makePrepSummary([], { establishment: { uuid: 'e5a1b2c3-0000-4000-8000-000000000002', name: 'Side' } })
        .id,
      makePrepSummary([], { pickupDate: '2026-11-25' }).id,
      makePrepSummary([], { organization: { id: '7c6d5e4f-3a2b-4c1d-8e9f-0a1b2c3d4e5f', name: 'South' } }).id,
    ];
    expect(new Set(ids).size).toBe(4);
  });

  it('never equals the id of an order event, even one whose order uuid is the establishment’s', () => {
    const summary = makePrepSummary([]);
    const order = pendingOrder({ items: [] }, { uuid: MAIN_CANTEEN.uuid });
    const orderIds = [
      ...diffOrder(undefined, order, diffContext()).events,
      ...diffOrder(undefined, laterOrder(order, { status: statusOf('canceled') }), diffContext()).events,
    ].map((event) => event.id);
    expect(orderIds.length).toBeGreaterThan(0);
    expect(orderIds).not.toContain(summary.id);
  });
});

describe('buildPrepSummary: inputs that would make a wrong summary', () => {
  const prefix = `prep summary for establishment ${MAIN_CANTEEN.uuid} on ${PICKUP_DATE}`;

  it('refuses an order of another establishment, naming it', () => {
    const order = pendingOrder(
      { items: [] },
      { reference: 'NS-1031', establishment: { uuid: 'e5a1b2c3-0000-4000-8000-000000000002', name: 'Side' } },
    );
    const error = refusalOf(() => buildPrepSummary(summaryInput({ orders: [order] })));
    expect(error.message).toBe(
      `${prefix}: order NS-1031 (${order.uuid}) belongs to establishment e5a1b2c3-0000-4000-8000-000000000002`,
    );
    expect(error).toMatchObject({
      name: 'PrepSummaryInputError',
      establishmentUuid: MAIN_CANTEEN.uuid,
      pickupDate: PICKUP_DATE,
    });
  });

  it('accepts the establishment’s uuid in another letter case', () => {
    const order = pendingOrder(
      { items: [['SOUP', 'Soup', 1]] },
      { establishment: { uuid: MAIN_CANTEEN.uuid.toUpperCase(), name: 'Main Canteen' } },
    );
    expect(buildPrepSummary(summaryInput({ orders: [order] })).data.orders).toBe(1);
  });

  it('refuses an order of another pickup date', () => {
    const order = pendingOrder({ items: [] }, { reference: 'NS-7', pickup_at: '2026-11-25' });
    expect(refusalOf(() => buildPrepSummary(summaryInput({ orders: [order] }))).message).toBe(
      `${prefix}: order NS-7 (${order.uuid}) is for pickup on 2026-11-25`,
    );
  });

  it('refuses an order that is not pending: a canceled one is not to be prepared', () => {
    const order = pendingOrder({ items: [] }, { reference: 'NS-8', status: statusOf('canceled') });
    expect(refusalOf(() => buildPrepSummary(summaryInput({ orders: [order] }))).message).toBe(
      `${prefix}: order NS-8 (${order.uuid}) is canceled, not pending`,
    );
  });

  it('refuses a count of cancellations that is not a whole number ≥ 0', () => {
    for (const count of [-1, 1.5, Number.NaN]) {
      expect(refusalOf(() => makePrepSummary([], { canceledBeforeClosing: count })).message).toMatch(
        /canceledBeforeClosing must be a whole number/,
      );
    }
  });

  it('refuses a closing time without its UTC offset, or a pickup date that is not one, with the cause', () => {
    const noOffset = refusalOf(() => makePrepSummary([], { closedAt: '2026-11-24T10:30:00' }));
    expect(noOffset.message).toMatch(/: not a valid event: /);
    expect(noOffset.cause).toBeDefined();
    expect(refusalOf(() => makePrepSummary([], { pickupDate: '24/11/26' })).message).toMatch(
      /not a valid event/,
    );
  });
});

describe('buildPrepSummary: the notes', () => {
  const day = [
    {
      reference: 'R-2',
      class: '4A',
      notes: 'Picked up by grandma',
      items: [['SOUP', 'Soup', 1, 'no croutons']],
    },
    { reference: 'R-1', class: '3B', notes: null, items: [['LAS', 'Lasagne', 1, 'Egg allergy']] },
    { reference: 'R-3', class: null, notes: 'Vegan', items: [['SOUP', 'Soup', 1]] },
  ] satisfies OrderSketch[];

  it("lists every order's notes with its reference, class and item: flagged first, then by reference", () => {
    expect(makePrepSummary(day).data.notes).toEqual([
      {
        reference: 'R-1',
        class: '3B',
        item: { sku: 'LAS', name: 'Lasagne' },
        note: 'Egg allergy',
        flagged: true,
      },
      { reference: 'R-3', class: null, note: 'Vegan', flagged: true },
      { reference: 'R-2', class: '4A', note: 'Picked up by grandma', flagged: false },
      {
        reference: 'R-2',
        class: '4A',
        item: { sku: 'SOUP', name: 'Soup' },
        note: 'no croutons',
        flagged: false,
      },
    ]);
  });

  it("flags with the organization's words when it has its own, and flags nothing with none", () => {
    const own = makePrepSummary(day, { highlightWords: ['grandma'] }).data.notes ?? [];
    expect(own.filter((note) => note.flagged).map((note) => note.note)).toEqual(['Picked up by grandma']);
    const none = makePrepSummary(day, { highlightWords: [] }).data.notes ?? [];
    expect(none.some((note) => note.flagged)).toBe(false);
    expect(none.map((note) => note.reference)).toEqual(['R-1', 'R-2', 'R-2', 'R-3']);
  });

  it('has an empty list for a day without notes', () => {
    expect(makePrepSummary([{ items: [['SOUP', 'Soup', 1]] }]).data.notes).toEqual([]);
  });

  it('cuts a very long note, and decides its flag on the whole of it', () => {
    const long = `${'x'.repeat(2_000)} nut allergy`;
    const [note] = makePrepSummary([{ notes: long, items: [['SOUP', 'Soup', 1]] }]).data.notes ?? [];
    expect([...(note?.note ?? '')]).toHaveLength(PREP_SUMMARY_NOTE_MAX_CHARS);
    expect(note?.note.endsWith('…')).toBe(true);
    expect(note?.flagged).toBe(true);
  });

  it('leaves the last notes out when they outgrow the event, keeping the flagged ones, and counts them', () => {
    const sketches: OrderSketch[] = Array.from({ length: 400 }, (_, index) => ({
      reference: `R-${String(index).padStart(3, '0')}`,
      notes: `${index % 10 === 0 ? 'Egg allergy' : 'Cut small'} ${'.'.repeat(300)}`,
      items: [['SOUP', 'Soup', 1]],
    }));
    const event = makePrepSummary(sketches);
    const notes = event.data.notes ?? [];
    expect(notes.length).toBeLessThan(400);
    expect(event.data.notes_omitted).toBe(400 - notes.length);
    expect(Buffer.byteLength(JSON.stringify(notes))).toBeLessThanOrEqual(PREP_SUMMARY_NOTES_MAX_BYTES);
    // All 40 flagged notes are kept, first.
    expect(notes.slice(0, 40).every((note) => note.flagged)).toBe(true);
    expect(notes.filter((note) => note.flagged)).toHaveLength(40);
    // The figures are whole: only the notes were cut.
    expect(event.data.complete).toBe(true);
    expect(PrepSummaryEventSchema.safeParse(event).success).toBe(true);
  });
});

describe('PrepSummaryEventSchema', () => {
  it('reads a summary recorded before notes existed', () => {
    const { notes: _notes, ...before } = valid().data;
    expect(PrepSummaryEventSchema.safeParse({ ...valid(), data: before }).success).toBe(true);
  });

  const valid = () => makePrepSummary([{ items: [['SOUP', 'Soup', 1]] }]);

  it('refuses an incomplete summary without a reason, and a complete one with a reason', () => {
    const event = valid();
    expect(
      PrepSummaryEventSchema.safeParse({ ...event, data: { ...event.data, complete: false } }).success,
    ).toBe(false);
    expect(
      PrepSummaryEventSchema.safeParse({ ...event, data: { ...event.data, incomplete_reason: 'why' } })
        .success,
    ).toBe(false);
  });

  it('refuses an item line without a positive whole quantity', () => {
    const event = valid();
    const items = [{ sku: 'SOUP', name: 'Soup', quantity: 0 }];
    expect(PrepSummaryEventSchema.safeParse({ ...event, data: { ...event.data, items } }).success).toBe(
      false,
    );
  });
});
