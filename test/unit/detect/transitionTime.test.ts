import { describe, expect, it } from 'vitest';
import { transitionTime } from '../../../shared/detect/transitionTime.js';
import { parsedOrder, statusOf } from '../../support/detectFixtures.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { makePrepChanged } from '../../support/prepChangedFixtures.js';
import { CLOSED_AT, makePrepSummary } from '../../support/prepSummaryFixtures.js';

const CREATED = '2026-03-05T09:00:00.000000Z';
const TRANSITION = '2026-03-05T09:30:00.000000Z';

describe('transitionTime: when the change an event reports happened', () => {
  it('dates a new order by its created_at', () => {
    const order = parsedOrder({ created_at: CREATED });
    expect(transitionTime(makeOrderEvent({ order: { created_at: CREATED } }), order)).toBe(
      Date.parse(CREATED),
    );
  });

  it('dates a completion or cancellation by the timestamp the change set', () => {
    expect(transitionTime(makeOrderEvent({ type: 'order.completed' }), undefined)).toBe(
      Date.parse(TRANSITION),
    );
    expect(transitionTime(makeOrderEvent({ type: 'order.canceled' }), undefined)).toBe(
      Date.parse(TRANSITION),
    );
  });

  it('dates an archiving by updated_at while the order is still archived, and not after it moved on', () => {
    const event = makeOrderEvent({ type: 'order.archived' });
    const archived = parsedOrder({ status: statusOf('archived'), updated_at: TRANSITION });
    expect(transitionTime(event, archived)).toBe(Date.parse(TRANSITION));
    expect(transitionTime(event, parsedOrder({ status: statusOf('pending') }))).toBeUndefined();
    expect(transitionTime(event, undefined)).toBeUndefined();
  });

  it('dates a prep summary by the closing time, so the latency says how late after closing it went out', () => {
    expect(transitionTime(makePrepSummary([]), undefined)).toBe(Date.parse(CLOSED_AT));
  });

  it('gives a prep_changed no time of its own: its order events are dated each by its order', () => {
    expect(transitionTime(makePrepChanged(), parsedOrder())).toBeUndefined();
  });
});
