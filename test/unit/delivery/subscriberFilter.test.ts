import { describe, expect, it } from 'vitest';
import type { SubscriberFilter } from '../../../shared/config/configSchema.js';
import { eventMessageAttributes } from '../../../shared/delivery/messageAttributes.js';
import { compileFilterPolicy } from '../../../shared/delivery/snsFilterPolicy.js';
import { matchesFilter } from '../../../shared/delivery/subscriberFilter.js';
import { EVENT_TYPES, type OrderEvent } from '../../../shared/events/orderEvent.js';
import { snsPolicyMatches } from '../../support/snsPolicyEvaluator.js';
import {
  CANTEEN_1,
  CANTEEN_2,
  CANTEEN_3,
  CANTEEN_4,
  establishmentIds,
  NORTH,
  orderEvent,
  SOUTH,
} from './subscriberFilterFixtures.js';

// Every type, every status plus one the config does not know, every payment method plus an unknown and an
// empty one, three establishments (two of them written in capitals by the API) and two organizations.
const EVENTS: Record<string, OrderEvent> = {
  A: orderEvent({
    type: 'order.created',
    status: 'pending',
    paymentMethod: 'card',
    establishment: CANTEEN_1,
  }),
  B: orderEvent({
    type: 'order.completed',
    status: 'completed',
    paymentMethod: 'cash',
    establishment: CANTEEN_1,
  }),
  C: orderEvent({
    type: 'order.canceled',
    status: 'canceled',
    paymentMethod: 'credit',
    establishment: CANTEEN_2.toUpperCase(),
  }),
  D: orderEvent({
    type: 'order.archived',
    status: 'archived',
    paymentMethod: 'card',
    establishment: CANTEEN_2,
  }),
  E: orderEvent({
    type: 'order.status_changed',
    status: 'pending',
    paymentMethod: 'cash',
    establishment: CANTEEN_1,
  }),
  F: orderEvent({
    type: 'order.status_changed',
    status: 'refunded',
    paymentMethod: 'card',
    establishment: CANTEEN_1,
  }),
  G: orderEvent({
    type: 'order.created',
    status: 'pending',
    paymentMethod: 'credit',
    establishment: CANTEEN_3,
    organization: SOUTH,
  }),
  H: orderEvent({
    type: 'order.canceled',
    status: 'canceled',
    paymentMethod: 'card',
    establishment: CANTEEN_1.toUpperCase(),
  }),
  I: orderEvent({
    type: 'order.completed',
    status: 'completed',
    paymentMethod: 'card',
    establishment: CANTEEN_2,
    organization: SOUTH,
  }),
  J: orderEvent({
    type: 'order.created',
    status: 'pending',
    paymentMethod: 'voucher',
    establishment: CANTEEN_1,
  }),
  K: orderEvent({ type: 'order.created', status: 'pending', paymentMethod: '', establishment: CANTEEN_2 }),
  L: orderEvent({
    type: 'order.archived',
    status: 'archived',
    paymentMethod: 'cash',
    establishment: CANTEEN_3,
    organization: SOUTH,
  }),
};
const ALL = Object.keys(EVENTS);
const except = (...names: string[]) => ALL.filter((name) => !names.includes(name));

interface Case {
  name: string;
  filter: SubscriberFilter | undefined;
  /** The events a subscriber with this filter must receive, worked out by hand. */
  matches: string[];
}

const CASES: Case[] = [
  { name: 'no filter', filter: undefined, matches: ALL },
  { name: 'an empty filter', filter: {}, matches: ALL },
  { name: 'one type', filter: { types: ['order.created'] }, matches: ['A', 'G', 'J', 'K'] },
  {
    name: 'two types',
    filter: { types: ['order.canceled', 'order.completed'] },
    matches: ['B', 'C', 'H', 'I'],
  },
  { name: 'every type', filter: { types: [...EVENT_TYPES] }, matches: ALL },
  {
    name: 'one establishment',
    filter: { establishments: [CANTEEN_1] },
    matches: ['A', 'B', 'E', 'F', 'H', 'J'],
  },
  {
    name: 'an establishment written in capitals',
    filter: { establishments: [CANTEEN_1.toUpperCase()] },
    matches: ['A', 'B', 'E', 'F', 'H', 'J'],
  },
  {
    name: 'an establishment the API writes in capitals',
    filter: { establishments: [CANTEEN_2] },
    matches: ['C', 'D', 'I', 'K'],
  },
  {
    name: 'two establishments',
    filter: { establishments: [CANTEEN_1, CANTEEN_2] },
    matches: except('G', 'L'),
  },
  {
    name: 'another organization’s establishment',
    filter: { establishments: [CANTEEN_3] },
    matches: ['G', 'L'],
  },
  { name: 'an establishment without orders', filter: { establishments: [CANTEEN_4] }, matches: [] },
  { name: 'one status', filter: { statuses: ['pending'] }, matches: ['A', 'E', 'G', 'J', 'K'] },
  { name: 'two statuses', filter: { statuses: ['canceled', 'archived'] }, matches: ['C', 'D', 'H', 'L'] },
  {
    name: 'every known status, which leaves out an unknown one (refunded)',
    filter: { statuses: ['pending', 'completed', 'canceled', 'archived'] },
    matches: except('F'),
  },
  { name: 'one payment method', filter: { paymentMethods: ['cash'] }, matches: ['B', 'E', 'L'] },
  {
    name: 'two payment methods',
    filter: { paymentMethods: ['card', 'credit'] },
    matches: ['A', 'C', 'D', 'F', 'G', 'H', 'I'],
  },
  {
    name: 'every known payment method, which leaves out an unknown and a missing one',
    filter: { paymentMethods: ['cash', 'card', 'credit'] },
    matches: except('J', 'K'),
  },
  {
    name: 'a type at one establishment',
    filter: { types: ['order.created'], establishments: [CANTEEN_1] },
    matches: ['A', 'J'],
  },
  {
    name: 'a type paid one way',
    filter: { types: ['order.canceled'], paymentMethods: ['card'] },
    matches: ['H'],
  },
  {
    name: 'a type with a status',
    filter: { types: ['order.status_changed'], statuses: ['pending'] },
    matches: ['E'],
  },
  {
    name: 'every key with one value',
    filter: {
      types: ['order.created'],
      establishments: [CANTEEN_1],
      statuses: ['pending'],
      paymentMethods: ['card'],
    },
    matches: ['A'],
  },
  {
    name: 'every key with several values, uuids in mixed case',
    filter: {
      types: ['order.created', 'order.canceled', 'order.status_changed'],
      establishments: [CANTEEN_1, CANTEEN_2.toUpperCase()],
      statuses: ['pending', 'canceled'],
      paymentMethods: ['card', 'credit'],
    },
    matches: ['A', 'C', 'H'],
  },
  {
    name: 'keys that contradict each other',
    filter: { types: ['order.completed'], statuses: ['canceled'] },
    matches: [],
  },
  {
    name: 'every value of every key at two establishments (120 combinations)',
    filter: {
      types: [...EVENT_TYPES],
      establishments: [CANTEEN_1, CANTEEN_2],
      statuses: ['pending', 'completed', 'canceled', 'archived'],
      paymentMethods: ['cash', 'card', 'credit'],
    },
    matches: ['A', 'B', 'C', 'D', 'E', 'H', 'I'],
  },
  {
    name: 'exactly SNS’s 150 combinations',
    filter: {
      types: [...EVENT_TYPES],
      establishments: [CANTEEN_1, CANTEEN_2, ...establishmentIds(8)],
      statuses: ['pending', 'completed', 'canceled'],
    },
    matches: ['A', 'B', 'C', 'E', 'H', 'I', 'J', 'K'],
  },
];

/** Each event's verdict from the matcher and from SNS evaluating the compiled policy. */
function verdicts(filter: SubscriberFilter | undefined, organizations?: readonly string[]) {
  const policy = compileFilterPolicy(filter, organizations);
  return Object.entries(EVENTS).map(([name, event]) => ({
    name,
    matcher: matchesFilter(filter, event),
    sns: snsPolicyMatches(policy, eventMessageAttributes(event)),
  }));
}

describe('the subscriber filter table', () => {
  it('exercises every event type, a wide spread of cases and both verdicts', () => {
    const types = new Set(Object.values(EVENTS).map((event) => event.type));
    expect(types).toEqual(new Set(EVENT_TYPES));
    expect(CASES.length).toBeGreaterThanOrEqual(20);
    const matched = CASES.flatMap((testCase) => testCase.matches);
    expect(matched.length).toBeGreaterThan(0);
    expect(matched.length).toBeLessThan(CASES.length * ALL.length);
  });
});

describe('matchesFilter and the compiled SNS policy agree case for case', () => {
  it.each(CASES)('$name', ({ filter, matches }) => {
    const results = verdicts(filter);
    expect(results.filter((result) => result.matcher).map((result) => result.name)).toEqual(matches);
    expect(results.filter((result) => result.matcher !== result.sns)).toEqual([]);
  });

  it.each(CASES)('$name, restricted to one organization', ({ filter, matches }) => {
    // The compiler's optional organization key narrows SNS exactly as an organization check would locally.
    const results = verdicts(filter, [NORTH.toUpperCase()]);
    const north = matches.filter((name) => EVENTS[name]?.data.organization.id === NORTH);
    expect(results.filter((result) => result.sns).map((result) => result.name)).toEqual(north);
    for (const result of results) {
      const event = EVENTS[result.name];
      expect(result.sns).toBe(result.matcher && event?.data.organization.id === NORTH);
    }
  });
});

describe('matchesFilter', () => {
  it('matches nothing for an empty list rather than everything', () => {
    // The config refuses an empty list; a filter built in code must still not widen to every event.
    expect(Object.values(EVENTS).some((event) => matchesFilter({ types: [] }, event))).toBe(false);
  });

  it('compares statuses and payment methods exactly, as SNS does', () => {
    const event = orderEvent({
      type: 'order.created',
      status: 'Pending',
      paymentMethod: 'CARD',
      establishment: CANTEEN_1,
    });
    expect(matchesFilter({ statuses: ['pending'] }, event)).toBe(false);
    expect(matchesFilter({ paymentMethods: ['card'] }, event)).toBe(false);
  });
});
