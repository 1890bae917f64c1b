import { describe, expect, it } from 'vitest';
import { MESSAGE_ATTRIBUTE_NAMES, NOT_AN_ORDER } from '../../../shared/contracts/messageAttributes.js';
import {
  checkFilterExpressible,
  compileFilterPolicy,
  digestFilterPolicy,
  SNS_MAX_POLICY_KEYS,
  SNS_MAX_VALUE_COMBINATIONS,
  takesEventsAtOnce,
} from '../../../shared/contracts/snsFilterPolicy.js';
import { FilterPolicyError } from '../../../shared/delivery/errors.js';
import type { EventType } from '../../../shared/events/notifierEvent.js';
import { ORDER_EVENT_TYPES } from '../../../shared/events/orderEvent.js';
import {
  CANTEEN_1,
  CANTEEN_2,
  establishmentIds,
  NORTH,
  SOUTH,
} from '../delivery/subscriberFilterFixtures.js';

/** Five types, prep summaries among them: their policies carry the marker on statuses and payment methods. */
const FIVE_TYPES: EventType[] = [
  'order.created',
  'order.completed',
  'order.canceled',
  'order.rescheduled',
  'establishment.prep_summary',
];

/** What every subscription that takes each event however late (no catch-ups) names beside its filter. */
const EVERY_EVENT = ['every-event'];

function refusalOf(compile: () => unknown): FilterPolicyError {
  try {
    compile();
  } catch (error) {
    if (error instanceof FilterPolicyError) return error;
    throw error;
  }
  throw new Error('expected the filter to be refused');
}

describe('compileFilterPolicy', () => {
  it('takes every event type but digests for no filter or an empty one, so no subscription takes a digest', () => {
    expect(compileFilterPolicy(undefined)).toEqual({
      type: [{ 'anything-but': ['digest.email'] }],
      audience: EVERY_EVENT,
    });
    expect(compileFilterPolicy({})).toEqual({
      type: [{ 'anything-but': ['digest.email'] }],
      audience: EVERY_EVENT,
    });
  });

  it("leaves out the types an e-mail subscriber's digest gathers", () => {
    expect(compileFilterPolicy(undefined, undefined, ['order.created', 'order.completed'])).toEqual({
      type: [{ 'anything-but': ['order.created', 'order.completed', 'digest.email'] }],
      audience: EVERY_EVENT,
    });
    expect(
      compileFilterPolicy({ types: ['order.created', 'order.canceled'] }, undefined, ['order.created']),
    ).toEqual({ type: ['order.canceled'], audience: EVERY_EVENT });
  });

  it('lets no establishment event through a statuses key when the digest gathers both kinds', () => {
    const held = ['establishment.prep_summary', 'establishment.prep_changed'];
    expect(compileFilterPolicy({ statuses: ['canceled'] }, undefined, held)).toEqual({
      type: [{ 'anything-but': [...held, 'digest.email'] }],
      status: ['canceled'],
      audience: EVERY_EVENT,
    });
  });

  it('still lets prep changes through a statuses key when the digest gathers only the summaries', () => {
    expect(
      compileFilterPolicy({ statuses: ['canceled'] }, undefined, ['establishment.prep_summary']),
    ).toEqual({
      type: [{ 'anything-but': ['establishment.prep_summary', 'digest.email'] }],
      status: ['canceled', 'n/a'],
      audience: EVERY_EVENT,
    });
    expect(
      compileFilterPolicy({
        types: ['order.canceled', 'establishment.prep_changed'],
        statuses: ['canceled'],
      }),
    ).toEqual({
      type: ['order.canceled', 'establishment.prep_changed'],
      status: ['canceled', 'n/a'],
      audience: EVERY_EVENT,
    });
  });

  it('refuses a filter whose every type the digest gathers, and says whether any is left', () => {
    const filter = { types: ['order.created' as const] };
    expect(refusalOf(() => compileFilterPolicy(filter, undefined, ['order.created'])).reason).toBe(
      'every type of the filter is in the digest, so nothing is sent at once',
    );
    expect(takesEventsAtOnce(filter, ['order.created'])).toBe(false);
    expect(takesEventsAtOnce(filter, ['order.canceled'])).toBe(true);
    expect(takesEventsAtOnce(undefined, ['order.created'])).toBe(true);
  });

  it('addresses a digest subscription to its subscriber alone', () => {
    expect(digestFilterPolicy('office')).toEqual({ digest: ['office'] });
  });

  it('maps each filter key to its message attribute', () => {
    expect(
      compileFilterPolicy({
        types: ['order.created', 'order.canceled'],
        establishments: [CANTEEN_1],
        statuses: ['pending'],
        paymentMethods: ['card', 'credit'],
      }),
    ).toEqual({
      type: ['order.created', 'order.canceled'],
      establishment: [CANTEEN_1],
      status: ['pending'],
      payment_method: ['card', 'credit'],
      audience: EVERY_EVENT,
    });
  });

  it('lower-cases establishment uuids and keeps one of each', () => {
    expect(compileFilterPolicy({ establishments: [CANTEEN_1.toUpperCase(), CANTEEN_1, CANTEEN_2] })).toEqual({
      type: [{ 'anything-but': ['digest.email'] }],
      establishment: [CANTEEN_1, CANTEEN_2],
      audience: EVERY_EVENT,
    });
  });

  it('adds an organization key, lower-cased, only when asked', () => {
    expect(compileFilterPolicy({ types: ['order.created'] }, [NORTH.toUpperCase(), SOUTH])).toEqual({
      type: ['order.created'],
      organization: [NORTH, SOUTH],
      audience: EVERY_EVENT,
    });
    expect(compileFilterPolicy(undefined, [NORTH])).toEqual({
      type: [{ 'anything-but': ['digest.email'] }],
      organization: [NORTH],
      audience: EVERY_EVENT,
    });
    expect(compileFilterPolicy({ types: ['order.created'] })).not.toHaveProperty('organization');
  });

  it('produces the JSON document SNS takes as FilterPolicy', () => {
    const policy = compileFilterPolicy({ types: ['order.created'], establishments: [CANTEEN_1] });
    expect(JSON.parse(JSON.stringify(policy))).toEqual({
      type: ['order.created'],
      establishment: [CANTEEN_1],
      audience: EVERY_EVENT,
    });
  });

  it('lets prep summaries through a statuses or paymentMethods key with the value their attributes hold', () => {
    // Those keys choose among orders; a summary is about none, and SNS cannot say "or absent" beside values.
    expect(compileFilterPolicy({ statuses: ['pending'], paymentMethods: ['card', 'cash'] })).toEqual({
      type: [{ 'anything-but': ['digest.email'] }],
      status: ['pending', NOT_AN_ORDER],
      payment_method: ['card', 'cash', NOT_AN_ORDER],
      audience: EVERY_EVENT,
    });
    expect(
      compileFilterPolicy({ types: ['order.created', 'establishment.prep_summary'], statuses: ['pending'] }),
    ).toEqual({
      type: ['order.created', 'establishment.prep_summary'],
      status: ['pending', NOT_AN_ORDER],
      audience: EVERY_EVENT,
    });
  });

  it('adds no such value when the types leave prep summaries out', () => {
    expect(compileFilterPolicy({ types: ['order.created'], statuses: ['pending'] })).toEqual({
      type: ['order.created'],
      status: ['pending'],
      audience: EVERY_EVENT,
    });
  });

  it('accepts exactly 150 value combinations, counting the value that lets summaries through', () => {
    const statuses = ['pending', 'canceled'] as ('pending' | 'canceled')[];
    const policy = compileFilterPolicy({ types: FIVE_TYPES, establishments: establishmentIds(10), statuses });
    expect(policy).toEqual({
      type: FIVE_TYPES,
      establishment: establishmentIds(10),
      status: [...statuses, NOT_AN_ORDER],
      audience: EVERY_EVENT,
    });
  });

  it('accepts exactly 150 value combinations of order types alone', () => {
    // Six types of the seven order types (a count of its own, not the list's length, which grows).
    const policy = compileFilterPolicy({
      types: ORDER_EVENT_TYPES.filter((type) => type !== 'order.updated'),
      establishments: establishmentIds(25),
    });
    expect(policy?.establishment).toHaveLength(25);
  });

  it('refuses 151 or more value combinations, naming each factor', () => {
    const error = refusalOf(() =>
      compileFilterPolicy({
        types: FIVE_TYPES,
        establishments: establishmentIds(11),
        statuses: ['pending', 'canceled'],
      }),
    );
    expect(error.reason).toBe(
      'filter has 165 value combinations; SNS allows 150 (types 5 × establishments 11 × statuses 2+1 for prep summaries and changes)',
    );
    expect(error.message).toBe(`SNS cannot express this subscriber filter: ${error.reason}`);
    expect(error.name).toBe('FilterPolicyError');
  });

  it('refuses a single list longer than 150', () => {
    const error = refusalOf(() => compileFilterPolicy({ establishments: establishmentIds(151) }));
    expect(error.reason).toBe('filter has 151 value combinations; SNS allows 150 (establishments 151)');
  });

  it('counts uuids that differ only in case once', () => {
    const ids = establishmentIds(150);
    const filter = { establishments: [...ids, ...ids.slice(0, 5).map((id) => id.toUpperCase())] };
    expect(compileFilterPolicy(filter)?.establishment).toHaveLength(150);
  });

  it('counts the organization restriction toward the combinations', () => {
    const filter = { types: FIVE_TYPES, establishments: establishmentIds(15) };
    expect(compileFilterPolicy(filter, [NORTH, SOUTH])?.organization).toEqual([NORTH, SOUTH]);
    const error = refusalOf(() => compileFilterPolicy(filter, [NORTH, SOUTH, CANTEEN_1]));
    expect(error.reason).toBe(
      'filter has 225 value combinations; SNS allows 150 (types 5 × establishments 15 × organizations 3)',
    );
  });

  it('refuses an empty list, which SNS cannot express and which must not widen to everything', () => {
    // Not even to prep summaries: the marker is never added to a list that names nothing.
    expect(refusalOf(() => compileFilterPolicy({ paymentMethods: [] })).reason).toMatch(
      /^paymentMethods lists no values/,
    );
    expect(refusalOf(() => compileFilterPolicy({ statuses: [] })).reason).toBe(
      'statuses lists no values, and SNS cannot express a filter that matches nothing; leave the key out to match everything',
    );
    expect(refusalOf(() => compileFilterPolicy(undefined, [])).reason).toMatch(
      /^organizations lists no values/,
    );
  });

  it('uses at most five keys with every filter key, audience among them; an organization on top is refused', () => {
    // Every event attribute but `digest` (which only a digest subscription names) and `organization`
    // (which no deployed policy names: infra restricts nothing by organization) is a key of a full filter.
    const eventAttributes = MESSAGE_ATTRIBUTE_NAMES.filter(
      (name) => name !== 'digest' && name !== 'organization',
    );
    expect(eventAttributes.length).toBeLessThanOrEqual(SNS_MAX_POLICY_KEYS);
    const filter = {
      types: ['order.created' as const],
      establishments: [CANTEEN_1],
      statuses: ['pending' as const],
      paymentMethods: ['cash' as const],
    };
    expect(Object.keys(compileFilterPolicy(filter, undefined, undefined, 900)).sort()).toEqual(
      [...eventAttributes].sort(),
    );
    expect(refusalOf(() => compileFilterPolicy(filter, [NORTH])).reason).toBe(
      'filter uses 6 attribute keys (types, establishments, statuses, paymentMethods, organizations, catchUpAfter); SNS allows 5',
    );
  });

  it("names a person's catch-up threshold as its audience, with one value: no filter it could express is refused", () => {
    expect(compileFilterPolicy(undefined, undefined, undefined, 900)).toEqual({
      type: [{ 'anything-but': ['digest.email'] }],
      audience: ['catch-up-after-900s'],
    });
    // The 150 combinations of order types alone still fit: the audience multiplies them by one.
    const full = {
      types: ORDER_EVENT_TYPES.filter((type) => type !== 'order.updated'),
      establishments: establishmentIds(25),
    };
    expect(compileFilterPolicy(full, undefined, undefined, 3600).audience).toEqual(['catch-up-after-3600s']);
    expect(checkFilterExpressible(full)).toBeUndefined();
  });
});

describe('checkFilterExpressible', () => {
  it('says nothing about a filter SNS can express', () => {
    expect(checkFilterExpressible(undefined)).toBeUndefined();
    expect(checkFilterExpressible({ types: ['order.created'] })).toBeUndefined();
  });

  it('gives the same reason compileFilterPolicy refuses with', () => {
    const filter = { establishments: establishmentIds(SNS_MAX_VALUE_COMBINATIONS + 1) };
    const reason = checkFilterExpressible(filter);
    expect(reason).toBeDefined();
    expect(refusalOf(() => compileFilterPolicy(filter)).reason).toBe(reason);
  });

  it('takes the organization restriction into account', () => {
    const filter = { establishments: establishmentIds(100) };
    expect(checkFilterExpressible(filter)).toBeUndefined();
    expect(checkFilterExpressible(filter, [NORTH, SOUTH])).toBe(
      'filter has 200 value combinations; SNS allows 150 (establishments 100 × organizations 2)',
    );
  });
});
