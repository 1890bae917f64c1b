import { describe, expect, it } from 'vitest';
import type { SubscriberFilter } from '../../../shared/config/configSchema.js';
import {
  digestMessageAttributes,
  eventMessageAttributes,
  type ResendTarget,
  resendMessageAttributes,
} from '../../../shared/contracts/messageAttributes.js';
import {
  CHANNEL_QUEUE_POLICY,
  compileFilterPolicy,
  digestFilterPolicy,
  type SnsFilterPolicy,
  takesEventsAtOnce,
  withResendBranch,
} from '../../../shared/contracts/snsFilterPolicy.js';
import { isDigested } from '../../../shared/delivery/digest/planDigests.js';
import { matchesFilter } from '../../../shared/delivery/subscriberFilter.js';
import { buildCatchUp } from '../../../shared/events/buildCatchUp.js';
import { CATCH_UP_EVENT_TYPE } from '../../../shared/events/catchUpEvent.js';
import { DIGEST_EVENT_TYPE, type DigestEvent } from '../../../shared/events/digestEvent.js';
import { EVENT_TYPES, isOrderEvent, type NotifierEvent } from '../../../shared/events/notifierEvent.js';
import { ORDER_EVENT_TYPES } from '../../../shared/events/orderEvent.js';
import { snsPolicyMatches } from '../../support/snsPolicyEvaluator.js';
import {
  CANTEEN_1,
  CANTEEN_2,
  CANTEEN_3,
  CANTEEN_4,
  establishmentIds,
  NORTH,
  orderEvent,
  prepChangedEvent,
  prepSummaryEvent,
  SOUTH,
} from './subscriberFilterFixtures.js';

// Every type, every status plus one the config does not know, every payment method plus an unknown and an
// empty one, three establishments (two of them written in capitals by the API), two organizations, an
// order that moved between establishments, and prep summaries and a prep_changed, which have no status or
// payment method.
const EVENTS: Record<string, NotifierEvent> = {
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
  M: orderEvent({
    type: 'order.rescheduled',
    status: 'pending',
    paymentMethod: 'cash',
    establishment: CANTEEN_2,
    movedFrom: CANTEEN_1.toUpperCase(),
  }),
  N: orderEvent({
    type: 'order.rescheduled',
    status: 'pending',
    paymentMethod: 'card',
    establishment: CANTEEN_1,
  }),
  R: orderEvent({
    type: 'order.updated',
    status: 'pending',
    paymentMethod: 'card',
    establishment: CANTEEN_2.toUpperCase(),
  }),
  P: prepSummaryEvent({ establishment: CANTEEN_1 }),
  Q: prepSummaryEvent({ establishment: CANTEEN_3.toUpperCase(), organization: SOUTH }),
  S: prepChangedEvent({ establishment: CANTEEN_2.toUpperCase() }),
};
const ALL = Object.keys(EVENTS);
const except = (...names: string[]) => ALL.filter((name) => !names.includes(name));

interface Case {
  name: string;
  filter: SubscriberFilter | undefined;
  /** The events a subscriber with this filter must receive, worked out by hand. */
  matches: string[];
}

const SUMMARIES = ['P', 'Q'];
/** Prep summaries and prep changes: about an establishment's day, not an order. */
const ESTABLISHMENT_EVENTS = [...SUMMARIES, 'S'];

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
    name: 'every order type, which leaves out prep summaries and prep changes',
    filter: { types: [...ORDER_EVENT_TYPES] },
    matches: except(...ESTABLISHMENT_EVENTS),
  },
  { name: 'prep summaries only', filter: { types: ['establishment.prep_summary'] }, matches: SUMMARIES },
  { name: 'prep changes only', filter: { types: ['establishment.prep_changed'] }, matches: ['S'] },
  { name: 'reschedules only', filter: { types: ['order.rescheduled'] }, matches: ['M', 'N'] },
  {
    name: 'one establishment, which includes an order that moved away from it and its summary',
    filter: { establishments: [CANTEEN_1] },
    matches: ['A', 'B', 'E', 'F', 'H', 'J', 'M', 'N', 'P'],
  },
  {
    name: 'an establishment written in capitals',
    filter: { establishments: [CANTEEN_1.toUpperCase()] },
    matches: ['A', 'B', 'E', 'F', 'H', 'J', 'M', 'N', 'P'],
  },
  {
    name: 'an establishment the API writes in capitals',
    filter: { establishments: [CANTEEN_2] },
    matches: ['C', 'D', 'I', 'K', 'M', 'R', 'S'],
  },
  {
    name: 'two establishments',
    filter: { establishments: [CANTEEN_1, CANTEEN_2] },
    matches: except('G', 'L', 'Q'),
  },
  {
    name: 'another organization’s establishment, whose summary the API writes in capitals',
    filter: { establishments: [CANTEEN_3] },
    matches: ['G', 'L', 'Q'],
  },
  { name: 'an establishment without orders', filter: { establishments: [CANTEEN_4] }, matches: [] },
  {
    name: 'reschedules at the establishment an order left',
    filter: { types: ['order.rescheduled'], establishments: [CANTEEN_1] },
    matches: ['M', 'N'],
  },
  {
    name: 'reschedules at the establishment an order moved to',
    filter: { types: ['order.rescheduled'], establishments: [CANTEEN_2] },
    matches: ['M'],
  },
  {
    name: 'one status, which does not hold summaries or prep changes back',
    filter: { statuses: ['pending'] },
    matches: ['A', 'E', 'G', 'J', 'K', 'M', 'N', 'R', 'P', 'Q', 'S'],
  },
  {
    name: 'two statuses',
    filter: { statuses: ['canceled', 'archived'] },
    matches: ['C', 'D', 'H', 'L', 'P', 'Q', 'S'],
  },
  {
    name: 'every known status, which leaves out an unknown one (refunded)',
    filter: { statuses: ['pending', 'completed', 'canceled', 'archived'] },
    matches: except('F'),
  },
  {
    name: 'one payment method',
    filter: { paymentMethods: ['cash'] },
    matches: ['B', 'E', 'L', 'M', 'P', 'Q', 'S'],
  },
  {
    name: 'two payment methods',
    filter: { paymentMethods: ['card', 'credit'] },
    matches: ['A', 'C', 'D', 'F', 'G', 'H', 'I', 'N', 'R', 'P', 'Q', 'S'],
  },
  {
    name: 'every known payment method, which leaves out an unknown and a missing one',
    filter: { paymentMethods: ['cash', 'card', 'credit'] },
    matches: except('J', 'K'),
  },
  {
    name: 'a kitchen channel: its establishment’s pending orders, and its summary',
    filter: { establishments: [CANTEEN_1], statuses: ['pending'] },
    matches: ['A', 'E', 'J', 'M', 'N', 'P'],
  },
  {
    name: 'a kitchen channel whose establishment the API writes in capitals: its pending orders and its changes',
    filter: { establishments: [CANTEEN_2], statuses: ['pending'] },
    matches: ['K', 'M', 'R', 'S'],
  },
  {
    name: 'a kitchen channel without summaries',
    filter: { types: [...ORDER_EVENT_TYPES], establishments: [CANTEEN_1], statuses: ['pending'] },
    matches: ['A', 'E', 'J', 'M', 'N'],
  },
  {
    name: 'summaries of one establishment, with a payment method that does not apply to them',
    filter: { types: ['establishment.prep_summary'], establishments: [CANTEEN_3], paymentMethods: ['cash'] },
    matches: ['Q'],
  },
  {
    name: 'prep changes, with a payment method that does not apply to them',
    filter: { types: ['establishment.prep_changed'], paymentMethods: ['cash'] },
    matches: ['S'],
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
      types: ['order.created', 'order.canceled', 'order.status_changed', 'establishment.prep_summary'],
      establishments: [CANTEEN_1, CANTEEN_2.toUpperCase()],
      statuses: ['pending', 'canceled'],
      paymentMethods: ['card', 'credit'],
    },
    matches: ['A', 'C', 'H', 'P'],
  },
  {
    name: 'keys that contradict each other',
    filter: { types: ['order.completed'], statuses: ['canceled'] },
    matches: [],
  },
  {
    name: 'every value of every key at two establishments, order types only (7 × 2 × 4 × 2 = 112 combinations)',
    filter: {
      types: [...ORDER_EVENT_TYPES],
      establishments: [CANTEEN_1, CANTEEN_2],
      statuses: ['pending', 'completed', 'canceled', 'archived'],
      paymentMethods: ['cash', 'card'],
    },
    matches: ['A', 'B', 'D', 'E', 'H', 'I', 'M', 'N', 'R'],
  },
  {
    name: 'exactly SNS’s 150 combinations, counting the value that lets summaries through',
    filter: {
      types: [
        'order.created',
        'order.completed',
        'order.canceled',
        'order.rescheduled',
        'establishment.prep_summary',
      ],
      establishments: [CANTEEN_1, CANTEEN_2, ...establishmentIds(8)],
      statuses: ['pending', 'canceled'],
    },
    matches: ['A', 'C', 'H', 'J', 'K', 'M', 'N', 'P'],
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
    // A catch-up stands for events of these types; it has cases of its own below.
    expect(types).toEqual(new Set(EVENT_TYPES.filter((type) => type !== CATCH_UP_EVENT_TYPE)));
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

  // With all four filter keys, the organization would be a sixth key beside `audience`: SNS allows five.
  // No deployed policy names the organization; the restriction stays for filters of fewer keys.
  const FEWER_KEYS = CASES.filter(({ filter }) => Object.keys(filter ?? {}).length < 4);

  it.each(FEWER_KEYS)('$name, restricted to one organization', ({ filter, matches }) => {
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

describe('a catch-up on the topic', () => {
  // Stale events of several types, establishments, statuses and payment methods, and two narrower ones.
  const catchUpOf = (names: readonly string[]) =>
    buildCatchUp({
      organization: { id: NORTH, name: 'North School' },
      source: 'https://example.test/api/v1/admin/organizations/north',
      catchUpAfterMs: 900_000,
      nowMs: Date.parse('2026-03-05T12:00:00Z'),
      events: names.flatMap((name) => {
        const event = EVENTS[name];
        return event !== undefined && isOrderEvent(event) ? [{ event: { ...event, id: name } }] : [];
      }),
    });
  const catchUps = [catchUpOf(['A', 'C', 'D']), catchUpOf(['B']), catchUpOf(['C'])];

  it.each(CASES)('reaches a person with catch-ups when matchesFilter says so: $name', ({ filter }) => {
    const policy = compileFilterPolicy(filter, undefined, undefined, 900);
    for (const catchUp of catchUps) {
      const attributes = eventMessageAttributes(catchUp, { catchUpAfterSeconds: [900] });
      expect(snsPolicyMatches(policy, attributes)).toBe(matchesFilter(filter, catchUp));
    }
  });

  it.each(CASES)(
    'never reaches a webhook, another threshold or a person without catch-ups: $name',
    ({ filter }) => {
      for (const catchUp of catchUps) {
        const attributes = eventMessageAttributes(catchUp, { catchUpAfterSeconds: [900, 3600] });
        expect(snsPolicyMatches(compileFilterPolicy(filter), attributes)).toBe(false);
        expect(snsPolicyMatches(compileFilterPolicy(filter, undefined, undefined, 3600), attributes)).toBe(
          false,
        );
      }
    },
  );

  it('matches when one of its events would, key by key', () => {
    const [wide] = catchUps;
    expect(matchesFilter({ types: ['order.canceled'] }, wide as NotifierEvent)).toBe(true);
    expect(matchesFilter({ types: ['order.completed'] }, wide as NotifierEvent)).toBe(false);
    expect(matchesFilter({ establishments: [CANTEEN_3] }, wide as NotifierEvent)).toBe(false);
    expect(matchesFilter({ paymentMethods: ['credit'], statuses: ['archived'] }, wide as NotifierEvent)).toBe(
      true,
    );
  });
});

describe('stale events on the topic', () => {
  it.each(CASES)(
    'reach a webhook and a later threshold, never a person they were stale for: $name',
    ({ filter }) => {
      for (const event of Object.values(EVENTS)) {
        // Found 20 minutes after it happened: stale for 15 minutes, timely for an hour.
        const attributes = eventMessageAttributes(event, {
          sourceTime: Date.parse(event.time) - 20 * 60_000,
          catchUpAfterSeconds: [900, 3600],
        });
        const matches = matchesFilter(filter, event);
        expect(snsPolicyMatches(compileFilterPolicy(filter), attributes)).toBe(matches);
        expect(snsPolicyMatches(compileFilterPolicy(filter, undefined, undefined, 3600), attributes)).toBe(
          matches,
        );
        // A prep summary is never stale: a kitchen still needs it.
        expect(snsPolicyMatches(compileFilterPolicy(filter, undefined, undefined, 900), attributes)).toBe(
          matches && !isOrderEvent(event),
        );
      }
    },
  );
});

describe('matchesFilter', () => {
  it('matches nothing for an empty list rather than everything', () => {
    // The config refuses an empty list; a filter built in code must still not widen to every event.
    expect(Object.values(EVENTS).some((event) => matchesFilter({ types: [] }, event))).toBe(false);
  });

  it('matches no summary for an empty list of statuses or payment methods, though those do not apply', () => {
    const summary = EVENTS.P;
    if (summary === undefined) throw new Error('expected event P');
    expect(matchesFilter({ statuses: [] }, summary)).toBe(false);
    expect(matchesFilter({ paymentMethods: [] }, summary)).toBe(false);
  });

  it('does not let an order whose status reads like the summary marker pass as a summary', () => {
    const event = orderEvent({
      type: 'order.status_changed',
      status: 'n/a',
      paymentMethod: 'n/a',
      establishment: CANTEEN_1,
    });
    for (const filter of [{ statuses: ['pending' as const] }, { paymentMethods: ['cash' as const] }]) {
      expect(matchesFilter(filter, event)).toBe(false);
      expect(snsPolicyMatches(compileFilterPolicy(filter), eventMessageAttributes(event))).toBe(false);
    }
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

/** A digest published to the topic for `subscriberId`, as the digest function publishes it. */
function digestFor(subscriberId: string): DigestEvent {
  return {
    specversion: '1.0',
    id: `digest-${subscriberId}`,
    source: 'meal-order-notifier',
    type: DIGEST_EVENT_TYPE,
    subject: subscriberId,
    time: '2026-11-24T12:00:00+00:00',
    datacontenttype: 'application/json',
    data: {
      subscriber_id: subscriberId,
      organization: { id: NORTH.toUpperCase(), name: 'North School', time_zone: 'Europe/Lisbon' },
      every: '1h',
      period_start: '2026-11-24T11:00:00+00:00',
      period_end: '2026-11-24T12:00:00+00:00',
      by_type: [{ name: 'order.created', count: 1 }],
      by_establishment: [{ name: 'Main canteen', count: 1 }],
      events: [
        {
          event_id: 'e-1',
          type: 'order.created',
          reference: 'R-1',
          establishment: 'Main canteen',
          pickup_date: '2026-11-24',
          time: '2026-11-24T11:05:00+00:00',
        },
      ],
    },
  };
}

const DIGEST_TYPE_LISTS: { name: string; types: NotifierEvent['type'][] }[] = [
  { name: 'new orders', types: ['order.created'] },
  {
    name: 'every order type but cancellations',
    types: [
      'order.created',
      'order.completed',
      'order.archived',
      'order.status_changed',
      'order.rescheduled',
    ],
  },
  { name: 'prep summaries and completions', types: ['establishment.prep_summary', 'order.completed'] },
  { name: 'prep summaries and changes', types: ['establishment.prep_summary', 'establishment.prep_changed'] },
];

describe('an e-mail subscriber with a digest: its immediate subscription and the local runner agree', () => {
  // Every filter of the table, with each digest: locally the held types wait for the digest
  // (isDigested); on SNS the subscriber's immediate subscription leaves them out.
  const combinations = CASES.flatMap((testCase) =>
    DIGEST_TYPE_LISTS.map((digest) => ({ ...testCase, digest })),
  ).filter(({ filter, digest }) => takesEventsAtOnce(filter, digest.types));

  it('covers filters whose types the digest partly takes, and some it takes wholly', () => {
    expect(combinations.length).toBeGreaterThan(CASES.length * 2);
    const wholly = CASES.filter((testCase) => !takesEventsAtOnce(testCase.filter, ['order.created']));
    expect(wholly.length).toBeGreaterThan(0);
  });

  it.each(combinations)('$name, digest of $digest.name', ({ filter, digest }) => {
    const subscriber = {
      id: 'office',
      type: 'email' as const,
      enabled: true,
      includeContactDetails: false,
      to: ['office@example.test'],
      ...(filter === undefined ? {} : { filter }),
      digest: { every: '1h' as const, types: digest.types },
    };
    const policy = compileFilterPolicy(filter, undefined, digest.types);
    for (const [name, event] of Object.entries(EVENTS)) {
      const local = matchesFilter(filter, event) && !isDigested(subscriber, event);
      expect({ name, sns: snsPolicyMatches(policy, eventMessageAttributes(event)) }).toEqual({
        name,
        sns: local,
      });
    }
  });
});

describe('digests on the topic reach the subscriber they are addressed to, and nobody else', () => {
  const office = digestMessageAttributes(digestFor('office'));
  const kitchen = digestMessageAttributes(digestFor('kitchen'));

  it.each(CASES)('no event subscription takes a digest: $name', ({ filter }) => {
    expect(snsPolicyMatches(compileFilterPolicy(filter), office)).toBe(false);
    if (Object.keys(filter ?? {}).length < 4) {
      expect(snsPolicyMatches(compileFilterPolicy(filter, [NORTH]), office)).toBe(false);
    }
    for (const digest of DIGEST_TYPE_LISTS) {
      if (!takesEventsAtOnce(filter, digest.types)) continue;
      expect(snsPolicyMatches(compileFilterPolicy(filter, undefined, digest.types), office)).toBe(false);
    }
  });

  it('a digest subscription takes its own digests and no event at all', () => {
    expect(snsPolicyMatches(digestFilterPolicy('office'), office)).toBe(true);
    expect(snsPolicyMatches(digestFilterPolicy('office'), kitchen)).toBe(false);
    for (const event of Object.values(EVENTS)) {
      expect(snsPolicyMatches(digestFilterPolicy('office'), eventMessageAttributes(event))).toBe(false);
    }
  });
});

describe('a re-sent e-mail reaches the one subscription it names, and an ordinary message no resend branch', () => {
  const OFFICE: ResendTarget = { subscriberId: 'office', kind: 'events', address: 'office@example.test' };
  const resentToOffice = resendMessageAttributes(OFFICE);
  /** The subscription's whole policy; with no branch when the filter is at SNS's full 150 already. */
  const branchOf = (policy: SnsFilterPolicy, target: ResendTarget) =>
    withResendBranch(policy, target).policy as unknown as Record<string, readonly unknown[]>;
  const ordinary = [
    ...Object.values(EVENTS).flatMap((event) => [
      eventMessageAttributes(event),
      eventMessageAttributes(event, { catchUpAfterSeconds: [900, 3600] }),
    ]),
    digestMessageAttributes(digestFor('office')),
    digestMessageAttributes(digestFor('kitchen')),
  ];

  it.each(CASES)('the branch changes nothing for an event or a digest: $name', ({ filter }) => {
    for (const catchUpAfter of [undefined, 900]) {
      const policy = compileFilterPolicy(filter, undefined, [], catchUpAfter);
      const branched = branchOf(policy, OFFICE);
      for (const attributes of ordinary) {
        expect(snsPolicyMatches(branched, attributes)).toBe(snsPolicyMatches(policy, attributes));
        const branch = branched.$or?.[1] as { audience: string[] } | undefined;
        if (branch !== undefined) expect(snsPolicyMatches(branch, attributes)).toBe(false);
      }
    }
  });

  it.each(CASES)('no policy but its own takes a re-sent e-mail: $name', ({ filter }) => {
    // Every event policy refuses its type and its audience; so do the channel queues' and the digests'.
    for (const catchUpAfter of [undefined, 900]) {
      expect(snsPolicyMatches(compileFilterPolicy(filter, undefined, [], catchUpAfter), resentToOffice)).toBe(
        false,
      );
      const kitchen = branchOf(compileFilterPolicy(filter, undefined, [], catchUpAfter), {
        ...OFFICE,
        subscriberId: 'kitchen',
      });
      expect(snsPolicyMatches(kitchen, resentToOffice)).toBe(false);
      const own = withResendBranch(compileFilterPolicy(filter, undefined, [], catchUpAfter), OFFICE);
      // At SNS's full 150 the subscription has no branch (and its dead letters are forwarded by hand).
      expect(
        snsPolicyMatches(own.policy as unknown as Record<string, readonly unknown[]>, resentToOffice),
      ).toBe(own.resend);
    }
  });

  it("reaches neither the subscriber's other recipients, nor its digest subscription, nor a channel queue", () => {
    const policy = compileFilterPolicy(undefined, undefined, ['order.created'], 900);
    expect(snsPolicyMatches(branchOf(policy, OFFICE), resentToOffice)).toBe(true);
    expect(
      snsPolicyMatches(branchOf(policy, { ...OFFICE, address: 'head@example.test' }), resentToOffice),
    ).toBe(false);
    const digest = branchOf(digestFilterPolicy('office'), { ...OFFICE, kind: 'digest' });
    expect(snsPolicyMatches(digest, resentToOffice)).toBe(false);
    expect(snsPolicyMatches(digest, resendMessageAttributes({ ...OFFICE, kind: 'digest' }))).toBe(true);
    expect(snsPolicyMatches(digest, digestMessageAttributes(digestFor('office')))).toBe(true);
    expect(snsPolicyMatches(CHANNEL_QUEUE_POLICY, resentToOffice)).toBe(false);
    for (const attributes of ordinary.slice(0, 2)) {
      expect(snsPolicyMatches(CHANNEL_QUEUE_POLICY, attributes)).toBe(true);
    }
  });

  it('reads $or as SNS does: only an array of two or more objects with no reserved field names', () => {
    const attributes = { type: { DataType: 'String', StringValue: 'x' } };
    expect(snsPolicyMatches({ $or: [{ type: ['x'] }, { audience: ['y'] }] }, attributes)).toBe(true);
    expect(snsPolicyMatches({ $or: [{ type: ['z'] }, { audience: ['y'] }] }, attributes)).toBe(false);
    // One object: `$or` is an ordinary attribute name, which the message does not carry.
    expect(() => snsPolicyMatches({ $or: [{ type: ['x'] }] }, attributes)).toThrow(/outside the subset/);
    // Keys beside `$or` are ANDed with it.
    expect(snsPolicyMatches({ type: ['y'], $or: [{ type: ['x'] }, { audience: ['y'] }] }, attributes)).toBe(
      false,
    );
  });
});
