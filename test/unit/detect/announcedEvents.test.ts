import { describe, expect, it } from 'vitest';
import { announcedEvents, announcedStatus } from '../../../shared/detect/announcedEvents.js';
import { diffOrder } from '../../../shared/detect/diffOrder.js';
import { diffContext, laterOrder, parsedOrder, snapshotOf, statusOf } from '../../support/detectFixtures.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';

const CANCELED_AT = '2026-03-05T08:00:00.000000Z';
const COMPLETED_AT = '2026-03-05T12:30:00.000000Z';

/** A pending order next seen archived: the diff reports the step it missed, then the archiving. */
function archivedSincePending(missed: 'completed' | 'canceled') {
  const pending = parsedOrder();
  const stamp = missed === 'completed' ? { completed_at: COMPLETED_AT } : { canceled_at: CANCELED_AT };
  const archived = laterOrder(pending, { status: statusOf('archived'), ...stamp });
  return diffOrder(snapshotOf(pending), archived, diffContext()).events;
}

describe('announcedStatus', () => {
  it('is the status a transition moves to', () => {
    expect(announcedStatus(makeOrderEvent({ type: 'order.completed' }))).toBe('completed');
    expect(announcedStatus(makeOrderEvent({ type: 'order.canceled' }))).toBe('canceled');
    expect(announcedStatus(makeOrderEvent({ type: 'order.archived' }))).toBe('archived');
  });

  it('is the status a transition moves to, even when the order has since moved on', () => {
    const events = archivedSincePending('completed');
    expect(events.map((event) => [event.type, event.data.order.status])).toEqual([
      ['order.completed', 'archived'],
      ['order.archived', 'archived'],
    ]);
    expect(events.map(announcedStatus)).toEqual(['completed', 'archived']);
    expect(archivedSincePending('canceled').map(announcedStatus)).toEqual(['canceled', 'archived']);
  });

  it('is the status a rescheduled order is in: a moved pending order is news where pending is announced', () => {
    const moved = makeOrderEvent({ type: 'order.rescheduled' });
    expect(announcedStatus(moved)).toBe('pending');
    expect(announcedEvents([moved], ['pending'])).toEqual([moved]);
    expect(announcedEvents([moved], ['canceled', 'completed'])).toEqual([]);
  });

  it('is the status a new order was found in', () => {
    expect(announcedStatus(makeOrderEvent({ type: 'order.created' }))).toBe('pending');
    const canceled = makeOrderEvent({
      type: 'order.created',
      order: { status: statusOf('canceled'), canceled_at: CANCELED_AT },
    });
    expect(announcedStatus(canceled)).toBe('canceled');
  });

  it('is the new status of any other status change', () => {
    expect(announcedStatus(makeOrderEvent({ type: 'order.status_changed' }))).toBe('preparing');
  });
});

describe('announcedEvents', () => {
  const created = makeOrderEvent({ type: 'order.created' });
  const completed = makeOrderEvent({ type: 'order.completed' });
  const canceled = makeOrderEvent({ type: 'order.canceled' });
  const archived = makeOrderEvent({ type: 'order.archived' });

  it('keeps what the watched statuses announce and drops the rest', () => {
    expect(announcedEvents([created, completed, canceled, archived], ['pending', 'canceled'])).toEqual([
      created,
      canceled,
    ]);
  });

  it('drops order.created of a pending order when pending is not watched', () => {
    expect(announcedEvents([created, completed], ['completed'])).toEqual([completed]);
  });

  it('keeps order.created of an order found canceled when canceled is watched, though pending is not', () => {
    const foundCanceled = makeOrderEvent({
      type: 'order.created',
      order: { status: statusOf('canceled'), canceled_at: CANCELED_AT },
    });
    expect(announcedEvents([foundCanceled], ['canceled'])).toEqual([foundCanceled]);
    expect(announcedEvents([foundCanceled], ['pending'])).toEqual([]);
  });

  it('keeps a missed completion of an archived order when completed is watched, and drops its archiving', () => {
    const events = archivedSincePending('completed');
    expect(announcedEvents(events, ['completed'])).toEqual(
      events.filter((event) => event.type === 'order.completed'),
    );
    expect(announcedEvents(events, ['completed'])).toHaveLength(1);
  });

  it('keeps the archiving of an order whose completion was missed when only archived is watched', () => {
    const events = archivedSincePending('completed');
    expect(announcedEvents(events, ['archived']).map((event) => event.type)).toEqual(['order.archived']);
  });

  it('keeps a missed cancellation of an archived order when canceled is watched', () => {
    const events = archivedSincePending('canceled');
    expect(announcedEvents(events, ['canceled']).map((event) => event.type)).toEqual(['order.canceled']);
  });

  it('announces nothing when no status is watched', () => {
    expect(announcedEvents([created, completed, canceled, archived], [])).toEqual([]);
  });

  it('keeps the events in their order', () => {
    const all = ['pending', 'completed', 'canceled', 'archived'];
    expect(announcedEvents([archived, created, canceled, completed], all)).toEqual([
      archived,
      created,
      canceled,
      completed,
    ]);
  });
});
