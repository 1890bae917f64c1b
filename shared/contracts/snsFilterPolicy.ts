// Compiles a subscriber filter into the SNS subscription filter policy (MessageAttributes scope) that lets
// through exactly what matchesFilter lets through, or says why SNS cannot express it. Every policy names
// `type`, so that no subscription takes a digest (published to the same topic for one subscriber alone),
// nor, for an e-mail subscriber with a digest, the types its digest holds back. Every policy names
// `audience` too (messageAttributes.ts): `every-event` for a subscriber that takes every event however late,
// its own catch-up threshold for a person with catch-ups, who then gets the catch-ups of that threshold and
// no event that was stale for it. One key with one value: it fits every filter SNS could express before.
//
// An e-mail subscription's policy also lets in the e-mails re-sent to it alone (withResendBranch):
// `{"$or": [<its policy>, {"audience": [<its resend audience>]}]}`. Every other policy refuses a re-sent
// e-mail twice over: its `type` (email.resend) is in no explicit list and in every `anything-but` one, and
// its `audience` is no event's. SNS counts an `$or` policy's complexity as the sum of each branch's
// combinations (AWS, "AND/OR logic"), so the branch costs one: a policy at the full 150 gets none, and its
// recipient's dead letters are forwarded by hand. It names no key the policy lacks (`audience` is in every
// event policy), so the five-key limit holds however SNS counts keys across branches.

import { FilterPolicyError } from '../delivery/errors.js';
import { DIGEST_EVENT_TYPE } from '../events/digestEvent.js';
import { ESTABLISHMENT_EVENT_TYPES } from '../events/notifierEvent.js';
import {
  catchUpAudience,
  EVERY_EVENT_AUDIENCE,
  type MessageAttributeName,
  NOT_AN_ORDER,
  parseResendAudience,
  RESEND_EVENT_TYPE,
  type ResendTarget,
  resendAudience,
} from './messageAttributes.js';

/**
 * A subscriber filter as a policy is compiled from it: the config's SubscriberFilter, read by its shape,
 * since the config schema refuses, with checkFilterExpressible, a filter SNS cannot express.
 */
export interface PolicyFilter {
  readonly types?: readonly string[];
  readonly establishments?: readonly string[];
  readonly statuses?: readonly string[];
  readonly paymentMethods?: readonly string[];
}

/** SNS's documented limits for one filter policy. */
export const SNS_MAX_POLICY_KEYS = 5;
export const SNS_MAX_VALUE_COMBINATIONS = 150;

/** An exact string, or any value but these (the attribute must be present). */
export type SnsFilterCondition = string | { readonly 'anything-but': readonly string[] };

/** Attribute name → the conditions one of which its value must meet; a message must satisfy every key. */
export type SnsFilterPolicy = Readonly<Partial<Record<MessageAttributeName, readonly SnsFilterCondition[]>>>;

interface PolicyKey {
  attribute: MessageAttributeName;
  /** The name the config author wrote, used in refusals. */
  label: string;
  values: readonly SnsFilterCondition[] | undefined;
  /** uuids compare case-insensitively in the matcher; SNS compares exactly, so both sides are lower-cased. */
  normalize?: (value: string) => string;
  /**
   * Keys about orders let an establishment event (a prep summary, a prep_changed) through (see
   * matchesFilter); its attribute holds NOT_AN_ORDER, so the policy lists that value too, whenever the
   * filter's types let any establishment event through at all.
   */
  aboutOrders?: boolean;
  /** Not written in the filter (`audience`): one value, never worth naming among the factors. */
  implied?: boolean;
}

function policyKeys(
  filter: PolicyFilter | undefined,
  organizationIds: readonly string[] | undefined,
  heldTypes: readonly string[],
  catchUpAfterSeconds: number | undefined,
): PolicyKey[] {
  const lower = (value: string) => value.toLowerCase();
  // No types written means every event type but the held ones, and never a digest.
  const types: readonly SnsFilterCondition[] =
    filter?.types === undefined
      ? [{ 'anything-but': [...heldTypes, DIGEST_EVENT_TYPE, RESEND_EVENT_TYPE] }]
      : filter.types.filter((type) => !heldTypes.includes(type));
  return [
    { attribute: 'type', label: 'types', values: types },
    { attribute: 'establishment', label: 'establishments', values: filter?.establishments, normalize: lower },
    { attribute: 'status', label: 'statuses', values: filter?.statuses, aboutOrders: true },
    {
      attribute: 'payment_method',
      label: 'paymentMethods',
      values: filter?.paymentMethods,
      aboutOrders: true,
    },
    { attribute: 'organization', label: 'organizations', values: organizationIds, normalize: lower },
    {
      attribute: 'audience',
      label: 'catchUpAfter',
      implied: true,
      values: [
        catchUpAfterSeconds === undefined ? EVERY_EVENT_AUDIENCE : catchUpAudience(catchUpAfterSeconds),
      ],
    },
  ];
}

type Compiled = { policy: SnsFilterPolicy } | { refusal: string };

function compile(
  filter: PolicyFilter | undefined,
  organizationIds: readonly string[] | undefined,
  heldTypes: readonly string[] = [],
  catchUpAfterSeconds: number | undefined = undefined,
): Compiled {
  const establishmentEventsPass = ESTABLISHMENT_EVENT_TYPES.some(
    (type) => !heldTypes.includes(type) && (filter?.types === undefined || filter.types.includes(type)),
  );
  if (filter?.types !== undefined && filter.types.length > 0 && !takesEventsAtOnce(filter, heldTypes)) {
    return { refusal: 'every type of the filter is in the digest, so nothing is sent at once' };
  }
  const present = policyKeys(filter, organizationIds, heldTypes, catchUpAfterSeconds).flatMap(
    ({ attribute, label, values, normalize, aboutOrders, implied }) => {
      if (values === undefined) return [];
      const normalized = normalize ?? ((value: string) => value);
      const written = [
        ...new Set(values.map((value) => (typeof value === 'string' ? normalized(value) : value))),
      ];
      // An empty list stays empty, to be refused below: the marker must not turn "nothing" into "summaries".
      const marked = aboutOrders === true && establishmentEventsPass && written.length > 0;
      return [{ attribute, label, values: marked ? [...written, NOT_AN_ORDER] : written, marked, implied }];
    },
  );
  const empty = present.find(({ values }) => values.length === 0);
  if (empty !== undefined) {
    // SNS refuses an empty list, and dropping the key would turn "nothing" into "everything".
    return {
      refusal: `${empty.label} lists no values, and SNS cannot express a filter that matches nothing; leave the key out to match everything`,
    };
  }
  // Four filter keys and `audience` fit (`type` and `audience` are always among them); the organization
  // restriction on top of all four does not, and the check keeps a future filter key honest.
  if (present.length > SNS_MAX_POLICY_KEYS) {
    const labels = present.map(({ label }) => label).join(', ');
    return {
      refusal: `filter uses ${present.length} attribute keys (${labels}); SNS allows ${SNS_MAX_POLICY_KEYS}`,
    };
  }
  // SNS counts a policy's complexity as the product of its list lengths.
  const combinations = present.reduce((product, { values }) => product * values.length, 1);
  if (combinations > SNS_MAX_VALUE_COMBINATIONS) {
    // A key nobody wrote (types implied as "any but") multiplies by one: not worth naming.
    const factors = present
      .filter(({ values, implied }) => implied !== true && values.some((value) => typeof value === 'string'))
      .map(({ label, values, marked }) =>
        marked
          ? `${label} ${values.length - 1}+1 for prep summaries and changes`
          : `${label} ${values.length}`,
      )
      .join(' × ');
    return {
      refusal: `filter has ${combinations} value combinations; SNS allows ${SNS_MAX_VALUE_COMBINATIONS} (${factors})`,
    };
  }
  return { policy: Object.fromEntries(present.map(({ attribute, values }) => [attribute, values])) };
}

/**
 * The subscription filter policy of the events `filter` lets through at once. It always names `type`: no
 * subscription is without a policy, since one without would take every digest too.
 * @param organizationIds restricts the subscription to these organizations; left out, a subscriber of a
 *   multi-organization config receives every organization's events, as the local matcher does
 * @param heldTypes the types an e-mail subscriber's digest gathers (`digest.types`), left out here
 * @param catchUpAfterSeconds a person's catch-up threshold (catchUpAfterMs / 1000); left out, the
 *   subscription takes every event however late, and no catch-up
 * @throws FilterPolicyError when SNS cannot express the filter
 */
export function compileFilterPolicy(
  filter: PolicyFilter | undefined,
  organizationIds?: readonly string[],
  heldTypes?: readonly string[],
  catchUpAfterSeconds?: number,
): SnsFilterPolicy {
  const compiled = compile(filter, organizationIds, heldTypes, catchUpAfterSeconds);
  if ('refusal' in compiled) throw new FilterPolicyError(compiled.refusal);
  return compiled.policy;
}

/** Whether any type the filter lets through is left to be sent at once, the digest's types aside. */
export function takesEventsAtOnce(filter: PolicyFilter | undefined, heldTypes: readonly string[]): boolean {
  return filter?.types === undefined || filter.types.some((type) => !heldTypes.includes(type));
}

/** The policy of a digest subscription: the digests addressed to this subscriber, nothing else. */
export function digestFilterPolicy(subscriberId: string): SnsFilterPolicy {
  return { digest: [subscriberId] };
}

/** Why SNS cannot express `filter` (with the organization restriction, if any), or undefined if it can. */
export function checkFilterExpressible(
  filter: PolicyFilter | undefined,
  organizationIds?: readonly string[],
): string | undefined {
  const compiled = compile(filter, organizationIds);
  return 'refusal' in compiled ? compiled.refusal : undefined;
}

/**
 * The policy of a channel's one delivery queue (infra/deliveryQueues.ts): every event but the digests, each
 * addressed to one e-mail subscriber. Which subscriber of the channel gets what is decided in code
 * (routeEvent.ts), so the policy does not grow with them.
 */
export const CHANNEL_QUEUE_POLICY: SnsFilterPolicy = {
  type: [{ 'anything-but': [DIGEST_EVENT_TYPE, RESEND_EVENT_TYPE] }],
};

/** A subscription's whole policy: one policy, or (an e-mail subscription's) its branches, any of which lets a message in. */
export type SnsSubscriptionPolicy = SnsFilterPolicy | { readonly $or: readonly SnsFilterPolicy[] };

function branchesOf(policy: SnsSubscriptionPolicy): readonly SnsFilterPolicy[] {
  return '$or' in policy ? (policy.$or as readonly SnsFilterPolicy[]) : [policy as SnsFilterPolicy];
}

/**
 * The policy's complexity as SNS counts it: each branch's product of its lists' lengths, summed over the
 * branches of an `$or` (AWS, "AND/OR logic": "the sum of the combination complexities for each OR statement").
 */
export function policyComplexity(policy: SnsSubscriptionPolicy): number {
  return branchesOf(policy).reduce(
    (sum, branch) =>
      sum + Object.values(branch).reduce((product, values) => product * (values?.length ?? 1), 1),
    0,
  );
}

/** Every attribute name the policy compares, in any branch. */
export function policyKeyNames(policy: SnsSubscriptionPolicy): string[] {
  return [...new Set(branchesOf(policy).flatMap((branch) => Object.keys(branch)))];
}

/** An e-mail subscription's policy, and whether it takes the e-mails re-sent to it (or why not). */
export type EmailSubscriptionPolicy =
  | { policy: SnsSubscriptionPolicy; resend: true }
  | { policy: SnsFilterPolicy; resend: false; reason: string };

/**
 * `policy` (an e-mail subscription's: compileFilterPolicy's or digestFilterPolicy's) with a branch for the
 * e-mails re-sent to `target` alone, when SNS allows the sum; else `policy` as it is, and why.
 */
export function withResendBranch(policy: SnsFilterPolicy, target: ResendTarget): EmailSubscriptionPolicy {
  const branched = { $or: [policy, { audience: [resendAudience(target)] }] };
  const complexity = policyComplexity(branched);
  if (complexity > SNS_MAX_VALUE_COMBINATIONS) {
    return {
      policy,
      resend: false,
      reason: `its filter has ${policyComplexity(policy)} value combinations, all SNS allows, and a branch for re-sent e-mail would make ${complexity}`,
    };
  }
  const keys = policyKeyNames(branched);
  if (keys.length > SNS_MAX_POLICY_KEYS) {
    // Not reached: every event policy names `audience`; kept so a future key cannot overflow unnoticed.
    return {
      policy,
      resend: false,
      reason: `a branch for re-sent e-mail would make the policy compare ${keys.length} attribute keys; SNS allows ${SNS_MAX_POLICY_KEYS}`,
    };
  }
  return { policy: branched, resend: true };
}

/**
 * The subscription a deployed policy's resend branch is for (SNS GetSubscriptionAttributes' FilterPolicy,
 * parsed), or undefined when it has none (a filter at the full 150, or a stack deployed before).
 */
export function resendTargetOf(policy: unknown): ResendTarget | undefined {
  const branches = (policy as { $or?: unknown } | null)?.$or;
  if (!Array.isArray(branches)) return undefined;
  for (const branch of branches) {
    if (typeof branch !== 'object' || branch === null) continue;
    const entries = Object.entries(branch as Record<string, unknown>);
    if (entries.length !== 1) continue;
    const [name, values] = entries[0] ?? [];
    if (name !== 'audience' || !Array.isArray(values) || values.length !== 1) continue;
    const target = typeof values[0] === 'string' ? parseResendAudience(values[0]) : undefined;
    if (target !== undefined) return target;
  }
  return undefined;
}
