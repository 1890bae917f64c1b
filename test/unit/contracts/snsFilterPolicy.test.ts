import { describe, expect, it } from 'vitest';
import { MESSAGE_ATTRIBUTE_NAMES, NOT_AN_ORDER } from '../../../shared/contracts/messageAttributes.js';
import {
  checkFilterExpressible,
  compileFilterPolicy,
  digestFilterPolicy,
  policyComplexity,
  policyKeyNames,
  resendTargetOf,
  SNS_MAX_POLICY_KEYS,
  SNS_MAX_VALUE_COMBINATIONS,
  takesEventsAtOnce,
  withResendBranch,
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
  it('takes every event type but digests and re-sent e-mails for no filter or an empty one, so no subscription takes one', () => {
    expect(compileFilterPolicy(undefined)).toEqual({
      type: [{ 'anything-but': ['digest.email', 'email.resend'] }],
      audience: EVERY_EVENT,
    });
    expect(compileFilterPolicy({})).toEqual({
      type: [{ 'anything-but': ['digest.email', 'email.resend'] }],
      audience: EVERY_EVENT,
    });
  });

  it("leaves out the types an e-mail subscriber's digest gathers", () => {
    expect(compileFilterPolicy(undefined, undefined, ['order.created', 'order.completed'])).toEqual({
      type: [{ 'anything-but': ['order.created', 'order.completed', 'digest.email', 'email.resend'] }],
      audience: EVERY_EVENT,
    });
    expect(
      compileFilterPolicy({ types: ['order.created', 'order.canceled'] }, undefined, ['order.created']),
    ).toEqual({ type: ['order.canceled'], audience: EVERY_EVENT });
  });

  it('lets no establishment event through a statuses key when the digest gathers both kinds', () => {
    const held = ['establishment.prep_summary', 'establishment.prep_changed'];
    expect(compileFilterPolicy({ statuses: ['canceled'] }, undefined, held)).toEqual({
      type: [{ 'anything-but': [...held, 'digest.email', 'email.resend'] }],
      status: ['canceled'],
      audience: EVERY_EVENT,
    });
  });

  it('still lets prep changes through a statuses key when the digest gathers only the summaries', () => {
    expect(
      compileFilterPolicy({ statuses: ['canceled'] }, undefined, ['establishment.prep_summary']),
    ).toEqual({
      type: [{ 'anything-but': ['establishment.prep_summary', 'digest.email', 'email.resend'] }],
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
      type: [{ 'anything-but': ['digest.email', 'email.resend'] }],
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
      type: [{ 'anything-but': ['digest.email', 'email.resend'] }],
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
      type: [{ 'anything-but': ['digest.email', 'email.resend'] }],
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
      type: [{ 'anything-but': ['digest.email', 'email.resend'] }],
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

describe('withResendBranch: an e-mail subscription also takes the e-mails re-sent to it alone', () => {
  const OFFICE = { subscriberId: 'office', kind: 'events' as const, address: 'Office@North.example.org' };
  const RESEND_TO_OFFICE = 'resend-to:office:events:office@north.example.org';

  it('ORs the policy with one branch naming its own subscription, by a key every event policy already has', () => {
    const policy = compileFilterPolicy({ types: ['order.canceled'] }, undefined, undefined, 900);
    const compiled = withResendBranch(policy, OFFICE);
    expect(compiled).toEqual({
      resend: true,
      policy: { $or: [policy, { audience: [RESEND_TO_OFFICE] }] },
    });
    expect(resendTargetOf(compiled.policy)).toEqual({ ...OFFICE, address: 'office@north.example.org' });
    // No key beyond the policy's own: five keys stay five, however SNS counts them across the branches.
    expect(policyKeyNames(compiled.policy).sort()).toEqual(Object.keys(policy).sort());
  });

  it('counts complexity as SNS does with $or: the sum of the branches (AWS docs, "AND/OR logic")', () => {
    // The docs' example: (source × metricName) + (source × metricType × metricId) + (… × spaceId) = 7,
    // flattened here to the branches it stands for.
    expect(
      policyComplexity({
        $or: [
          { type: ['a'], status: ['b', 'c'] },
          { type: ['a'], audience: ['d'], establishment: ['e', 'f'] },
          { type: ['a'], audience: ['d'], payment_method: ['g', 'h', 'i'] },
        ],
      }),
    ).toBe(7);
    expect(policyComplexity({ type: ['a', 'b', 'c'], status: ['x'], establishment: ['1', '2'] })).toBe(6);
  });

  it('gives a filter one combination short of the limit its branch, at exactly 150', () => {
    const policy = compileFilterPolicy({ establishments: establishmentIds(149) });
    expect(policyComplexity(policy)).toBe(149);
    const compiled = withResendBranch(policy, OFFICE);
    expect(compiled.resend).toBe(true);
    expect(policyComplexity(compiled.policy)).toBe(SNS_MAX_VALUE_COMBINATIONS);
  });

  it('still deploys the largest filter that fits today (150 combinations, five keys), without the branch, and says why', () => {
    const largest = compileFilterPolicy(
      {
        types: FIVE_TYPES,
        establishments: establishmentIds(5),
        statuses: ['pending', 'canceled'],
        paymentMethods: ['cash'],
      },
      undefined,
      undefined,
      900,
    );
    // 5 types × 5 establishments × (2 statuses + n/a) × (1 payment method + n/a) × 1 audience.
    expect(policyComplexity(largest)).toBe(SNS_MAX_VALUE_COMBINATIONS);
    expect(Object.keys(largest)).toHaveLength(SNS_MAX_POLICY_KEYS);
    const compiled = withResendBranch(largest, OFFICE);
    expect(compiled).toEqual({
      resend: false,
      policy: largest,
      reason:
        'its filter has 150 value combinations, all SNS allows, and a branch for re-sent e-mail would make 151',
    });
    expect(resendTargetOf(compiled.policy)).toBeUndefined();
  });

  it('gives a five-key filter under the limit its branch, still comparing five keys', () => {
    const fiveKeys = compileFilterPolicy(
      {
        types: ['order.created'],
        establishments: [CANTEEN_1],
        statuses: ['pending'],
        paymentMethods: ['cash'],
      },
      undefined,
      undefined,
      900,
    );
    const compiled = withResendBranch(fiveKeys, OFFICE);
    expect(compiled.resend).toBe(true);
    expect(policyKeyNames(compiled.policy)).toHaveLength(SNS_MAX_POLICY_KEYS);
  });

  it("gives a digest subscription its own branch, which another of the address's subscriptions does not name", () => {
    const compiled = withResendBranch(digestFilterPolicy('office'), { ...OFFICE, kind: 'digest' });
    expect(compiled.policy).toEqual({
      $or: [{ digest: ['office'] }, { audience: ['resend-to:office:digest:office@north.example.org'] }],
    });
  });

  it('reads no resend target out of a policy without the branch, or with a look-alike', () => {
    expect(resendTargetOf(undefined)).toBeUndefined();
    expect(resendTargetOf(compileFilterPolicy(undefined))).toBeUndefined();
    expect(resendTargetOf({ $or: [{ audience: ['every-event'] }, { type: ['x'] }] })).toBeUndefined();
    expect(resendTargetOf({ $or: [{ audience: ['resend-to:office:weekly:a@b'] }] })).toBeUndefined();
  });
});
