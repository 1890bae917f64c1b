// prep_changed events for tests, made by the real builder, so tests only spell out what they vary: the
// item deltas and the orders behind them (by default a lasagne fewer and a soup more, at the Main Canteen,
// since the 11:00 summary of Thu 26 Nov).
import { buildPrepChanged, type PrepChangedInput } from '../../shared/events/buildPrepChanged.js';
import type { PrepChangedEvent } from '../../shared/events/prepChangedEvent.js';
import { ORGANIZATION, SOURCE } from './detectFixtures.js';
import { orderUuid, testUuid } from './orderFactory.js';
import { MAIN_CANTEEN } from './prepSummaryFixtures.js';

export const CHANGED_DATE = '2026-11-26';
export const SUMMARY_CLOSED_AT = '2026-11-26T11:00:00+00:00';
export const SUMMARY_ID = testUuid(1, '5000');

/** The builder's input; `overrides` replace whole fields. */
export function prepChangedInput(overrides: Partial<PrepChangedInput> = {}): PrepChangedInput {
  return {
    organization: { ...ORGANIZATION },
    establishment: { ...MAIN_CANTEEN },
    pickupDate: CHANGED_DATE,
    summaryId: SUMMARY_ID,
    summaryClosedAt: SUMMARY_CLOSED_AT,
    source: SOURCE,
    time: '2026-11-26T11:20:00.000Z',
    items: [
      { sku: 'LASAGNE', name: 'Lasagne', from: 42, to: 40 },
      { sku: 'SOUP', name: 'Vegetable soup', from: 12, to: 13 },
    ],
    orders: [
      { uuid: orderUuid(1), reference: 'R-1042', change: 'canceled' },
      { uuid: orderUuid(2), reference: 'R-1043', change: 'updated', notes_changed: true },
    ],
    gathered: [testUuid(1, '6000'), testUuid(2, '6000')],
    ...overrides,
  };
}

export function makePrepChanged(overrides: Partial<PrepChangedInput> = {}): PrepChangedEvent {
  return buildPrepChanged(prepChangedInput(overrides));
}
