// Pins the prep_changed builder: the envelope and data it makes, its deterministic id (the summary and the
// order events it gathers, in any order), what it refuses, and the cut that keeps a huge one within what
// carries an event.
import { describe, expect, it } from 'vitest';
import { buildPrepChanged, PREP_CHANGED_LIST_MAX_BYTES } from '../../../shared/events/buildPrepChanged.js';
import { PrepChangedInputError } from '../../../shared/events/errors.js';
import { prepSummaryEventId } from '../../../shared/events/eventId.js';
import { MAX_EVENT_BYTES } from '../../../shared/events/orderSummary.js';
import { PrepChangedEventSchema } from '../../../shared/events/prepChangedEvent.js';
import { ORGANIZATION, SOURCE } from '../../support/detectFixtures.js';
import { orderUuid, testUuid } from '../../support/orderFactory.js';
import {
  CHANGED_DATE,
  prepChangedInput,
  SUMMARY_CLOSED_AT,
  SUMMARY_ID,
} from '../../support/prepChangedFixtures.js';
import { MAIN_CANTEEN } from '../../support/prepSummaryFixtures.js';

describe('buildPrepChanged', () => {
  it('makes the CloudEvent of the establishment’s changes, with the contract’s fields only', () => {
    const event = buildPrepChanged({
      ...prepChangedInput(),
      establishment: { ...MAIN_CANTEEN, secret: 'not in the contract' } as typeof MAIN_CANTEEN,
    });
    expect(PrepChangedEventSchema.parse(event)).toEqual(event);
    expect(event).toMatchObject({
      specversion: '1.0',
      source: SOURCE,
      type: 'establishment.prep_changed',
      subject: MAIN_CANTEEN.uuid,
      time: '2026-11-26T11:20:00.000Z',
      datacontenttype: 'application/json',
    });
    expect(event.data).toEqual({
      organization: { ...ORGANIZATION },
      establishment: { ...MAIN_CANTEEN },
      pickup_date: CHANGED_DATE,
      summary_id: SUMMARY_ID,
      summary_closed_at: SUMMARY_CLOSED_AT,
      items: [
        { sku: 'LASAGNE', name: 'Lasagne', from: 42, to: 40 },
        { sku: 'SOUP', name: 'Vegetable soup', from: 12, to: 13 },
      ],
      orders: [
        { uuid: orderUuid(1), reference: 'R-1042', change: 'canceled' },
        { uuid: orderUuid(2), reference: 'R-1043', change: 'updated', notes_changed: true },
      ],
    });
  });

  it('gives the same gathering the same id, in any order and in any letter case, and any other another', () => {
    const id = buildPrepChanged(prepChangedInput()).id;
    const gathered = prepChangedInput().gathered;
    expect(buildPrepChanged(prepChangedInput({ gathered: [...gathered].reverse() })).id).toBe(id);
    expect(
      buildPrepChanged(
        prepChangedInput({
          organization: { ...ORGANIZATION, id: ORGANIZATION.id.toUpperCase() },
          establishment: { ...MAIN_CANTEEN, uuid: MAIN_CANTEEN.uuid.toUpperCase() },
        }),
      ).id,
    ).toBe(id);
    const others = [
      prepChangedInput({ gathered: [...gathered, testUuid(3, '6000')] }),
      prepChangedInput({ summaryId: testUuid(2, '5000') }),
      prepChangedInput({ pickupDate: '2026-11-27' }),
    ].map((input) => buildPrepChanged(input).id);
    expect(new Set([id, ...others]).size).toBe(4);
    expect(id).not.toBe(prepSummaryEventId(ORGANIZATION.id, MAIN_CANTEEN.uuid, CHANGED_DATE));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('refuses inputs that would make a wrong event', () => {
    const refusal = (overrides: Parameters<typeof prepChangedInput>[0]) => {
      try {
        buildPrepChanged(prepChangedInput(overrides));
      } catch (error) {
        expect(error).toBeInstanceOf(PrepChangedInputError);
        return (error as Error).message;
      }
      throw new Error('expected a refusal');
    };
    expect(refusal({ orders: [] })).toMatch(/no order is behind the changes$/);
    expect(refusal({ gathered: [] })).toMatch(/no order event is behind the changes$/);
    expect(refusal({ items: [{ sku: 'S', name: 'Soup', from: 2, to: 2 }] })).toMatch(
      /item S does not change/,
    );
    expect(refusal({ items: [{ sku: 'S', name: 'Soup', from: 2, to: -1 }] })).toMatch(/not a valid event/);
    expect(refusal({ summaryClosedAt: '11:00' })).toMatch(/not a valid event/);
  });

  it('cuts lists too large for one event, saying how many it left out', () => {
    const items = Array.from({ length: 3000 }, (_, index) => ({
      sku: `SKU-${index}`,
      name: `Dish ${index} ${'x'.repeat(20)}`,
      from: 5,
      to: 4,
    }));
    const orders = Array.from({ length: 3000 }, (_, index) => ({
      uuid: orderUuid(index + 1),
      reference: `R-${index}`,
      change: 'created' as const,
    }));
    const event = buildPrepChanged(prepChangedInput({ items, orders }));
    const { items_omitted: itemsOmitted = 0, orders_omitted: ordersOmitted = 0 } = event.data;
    expect(itemsOmitted).toBeGreaterThan(0);
    expect(ordersOmitted).toBeGreaterThan(0);
    expect(event.data.items.length + itemsOmitted).toBe(3000);
    expect(event.data.orders.length + ordersOmitted).toBe(3000);
    expect(Buffer.byteLength(JSON.stringify(event.data.items))).toBeLessThanOrEqual(
      PREP_CHANGED_LIST_MAX_BYTES,
    );
    expect(Buffer.byteLength(JSON.stringify(event))).toBeLessThanOrEqual(MAX_EVENT_BYTES);
    expect(event.data.items[0]?.sku).toBe('SKU-0');
  });
});
