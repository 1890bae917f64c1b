// Events and uuids for the subscriber filter tests: an event is built from the few fields filters read,
// then checked against the event contract so the table never tests an impossible event.
import { buildPrepChanged } from '../../../shared/events/buildPrepChanged.js';
import { buildPrepSummary } from '../../../shared/events/buildPrepSummary.js';
import {
  type OrderEventType as EventType,
  type OrderEvent,
  OrderEventSchema,
} from '../../../shared/events/orderEvent.js';
import type { PrepChangedEvent } from '../../../shared/events/prepChangedEvent.js';
import type { PrepSummaryEvent } from '../../../shared/events/prepSummaryEvent.js';
import { testUuid } from '../../support/orderFactory.js';

export const NORTH = '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f';
export const SOUTH = '7c6d5e4f-3a2b-4c1d-8e9f-0a1b2c3d4e5f';
export const CANTEEN_1 = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
export const CANTEEN_2 = 'c0ffee00-1234-4abc-9def-0123456789ab';
export const CANTEEN_3 = 'd1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6';
/** An establishment no event of the tests belongs to. */
export const CANTEEN_4 = 'e4e4e4e4-e4e4-4e4e-8e4e-e4e4e4e4e4e4';

/** `count` distinct lower-case establishment uuids, for filters sized against SNS's limits. */
export function establishmentIds(count: number): string[] {
  return Array.from({ length: count }, (_, index) => testUuid(index + 1, 'aaaa'));
}

export interface EventFields {
  type: EventType;
  status: string;
  paymentMethod: string;
  establishment: string;
  organization?: string;
  /** The establishment the order moved from: its changes then say so. */
  movedFrom?: string;
}

export function orderEvent(fields: EventFields): OrderEvent {
  const organization = fields.organization ?? NORTH;
  const orderId = testUuid(42);
  return OrderEventSchema.parse({
    specversion: '1.0',
    id: testUuid(7, '9000'),
    source: `https://example.test/api/v1/admin/organizations/${organization}`,
    type: fields.type,
    subject: orderId,
    time: '2026-03-05T10:00:00.000Z',
    datacontenttype: 'application/json',
    data: {
      organization: { id: organization, name: organization === SOUTH ? 'South School' : 'North School' },
      order: {
        uuid: orderId,
        reference: 'R-1042',
        status: fields.status,
        pickup_date: '2026-03-06',
        establishment: { uuid: fields.establishment, name: 'Canteen' },
        customer: { name: 'Ana Silva', class: '3B', parent: null },
        total: { amount: '450', currency: 'EUR', formatted: '€4.50' },
        payment_method: fields.paymentMethod,
        items: [{ sku: 'SOUP-1', name: 'Soup', quantity: 1 }],
      },
      changes:
        fields.movedFrom === undefined
          ? []
          : [{ field: 'establishment', from: fields.movedFrom, to: fields.establishment }],
    },
  });
}

/** A prep summary of `establishment`, made by the real builder. */
export function prepSummaryEvent(fields: { establishment: string; organization?: string }): PrepSummaryEvent {
  const organization = fields.organization ?? NORTH;
  return buildPrepSummary({
    organization: { id: organization, name: organization === SOUTH ? 'South School' : 'North School' },
    establishment: { uuid: fields.establishment, name: 'Canteen' },
    pickupDate: '2026-03-06',
    closedAt: '2026-03-06T10:30:00+00:00',
    source: `https://example.test/api/v1/admin/organizations/${organization}`,
    time: '2026-03-06T10:31:00.000Z',
    orders: [],
    canceledBeforeClosing: 0,
  });
}

/** A prep_changed of `establishment` (a lasagne fewer, one order canceled), made by the real builder. */
export function prepChangedEvent(fields: { establishment: string; organization?: string }): PrepChangedEvent {
  const organization = fields.organization ?? NORTH;
  return buildPrepChanged({
    organization: { id: organization, name: organization === SOUTH ? 'South School' : 'North School' },
    establishment: { uuid: fields.establishment, name: 'Canteen' },
    pickupDate: '2026-03-06',
    summaryId: testUuid(8, '9000'),
    summaryClosedAt: '2026-03-06T10:30:00+00:00',
    source: `https://example.test/api/v1/admin/organizations/${organization}`,
    time: '2026-03-06T10:40:00.000Z',
    items: [{ sku: 'LASAGNE', name: 'Lasagne', from: 4, to: 3 }],
    orders: [{ uuid: testUuid(43), reference: 'R-1043', change: 'canceled' }],
    gathered: [testUuid(9, '9000')],
  });
}
