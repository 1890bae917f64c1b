// Compiles a subscriber filter into the SNS subscription filter policy (MessageAttributes scope) that lets
// through exactly what matchesFilter lets through, or says why SNS cannot express it.
import type { SubscriberFilter } from '../config/configSchema.js';
import { PREP_SUMMARY_EVENT_TYPE } from '../events/prepSummaryEvent.js';
import { FilterPolicyError } from './errors.js';
import { type MessageAttributeName, NOT_AN_ORDER } from './messageAttributes.js';

/** SNS's documented limits for one filter policy. */
export const SNS_MAX_POLICY_KEYS = 5;
export const SNS_MAX_VALUE_COMBINATIONS = 150;

/** Attribute name → the exact string values it may take; a message must satisfy every key. */
export type SnsFilterPolicy = Readonly<Partial<Record<MessageAttributeName, readonly string[]>>>;

interface PolicyKey {
  attribute: MessageAttributeName;
  /** The name the config author wrote, used in refusals. */
  label: string;
  values: readonly string[] | undefined;
  /** uuids compare case-insensitively in the matcher; SNS compares exactly, so both sides are lower-cased. */
  normalize?: (value: string) => string;
  /**
   * Keys about orders let a prep summary through (see matchesFilter); its attribute holds NOT_AN_ORDER, so
   * the policy lists that value too, whenever the filter's types let summaries through at all.
   */
  aboutOrders?: boolean;
}

function policyKeys(filter: SubscriberFilter | undefined, organizationIds?: readonly string[]): PolicyKey[] {
  const lower = (value: string) => value.toLowerCase();
  return [
    { attribute: 'type', label: 'types', values: filter?.types },
    { attribute: 'establishment', label: 'establishments', values: filter?.establishments, normalize: lower },
    { attribute: 'status', label: 'statuses', values: filter?.statuses, aboutOrders: true },
    {
      attribute: 'payment_method',
      label: 'paymentMethods',
      values: filter?.paymentMethods,
      aboutOrders: true,
    },
    { attribute: 'organization', label: 'organizations', values: organizationIds, normalize: lower },
  ];
}

type Compiled = { policy: SnsFilterPolicy | undefined } | { refusal: string };

function compile(filter: SubscriberFilter | undefined, organizationIds?: readonly string[]): Compiled {
  const summariesPass = filter?.types === undefined || filter.types.includes(PREP_SUMMARY_EVENT_TYPE);
  const present = policyKeys(filter, organizationIds).flatMap(
    ({ attribute, label, values, normalize, aboutOrders }) => {
      if (values === undefined) return [];
      const written = [...new Set(values.map(normalize ?? ((value) => value)))];
      // An empty list stays empty, to be refused below: the marker must not turn "nothing" into "summaries".
      const marked = aboutOrders === true && summariesPass && written.length > 0;
      return [{ attribute, label, values: marked ? [...written, NOT_AN_ORDER] : written, marked }];
    },
  );
  const empty = present.find(({ values }) => values.length === 0);
  if (empty !== undefined) {
    // SNS refuses an empty list, and dropping the key would turn "nothing" into "everything".
    return {
      refusal: `${empty.label} lists no values, and SNS cannot express a filter that matches nothing; leave the key out to match everything`,
    };
  }
  // Four filter keys plus the organization fit today; the check keeps a future filter key honest.
  if (present.length > SNS_MAX_POLICY_KEYS) {
    const labels = present.map(({ label }) => label).join(', ');
    return {
      refusal: `filter uses ${present.length} attribute keys (${labels}); SNS allows ${SNS_MAX_POLICY_KEYS}`,
    };
  }
  // SNS counts a policy's complexity as the product of its list lengths.
  const combinations = present.reduce((product, { values }) => product * values.length, 1);
  if (combinations > SNS_MAX_VALUE_COMBINATIONS) {
    const factors = present
      .map(({ label, values, marked }) =>
        marked ? `${label} ${values.length - 1}+1 for prep summaries` : `${label} ${values.length}`,
      )
      .join(' × ');
    return {
      refusal: `filter has ${combinations} value combinations; SNS allows ${SNS_MAX_VALUE_COMBINATIONS} (${factors})`,
    };
  }
  // No keys means no policy at all: an SNS subscription without one receives every message.
  if (present.length === 0) return { policy: undefined };
  return { policy: Object.fromEntries(present.map(({ attribute, values }) => [attribute, values])) };
}

/**
 * The subscription filter policy for `filter`, or undefined when it matches everything.
 * @param organizationIds restricts the subscription to these organizations; left out, a subscriber of a
 *   multi-organization config receives every organization's events, as the local matcher does
 * @throws FilterPolicyError when SNS cannot express the filter
 */
export function compileFilterPolicy(
  filter: SubscriberFilter | undefined,
  organizationIds?: readonly string[],
): SnsFilterPolicy | undefined {
  const compiled = compile(filter, organizationIds);
  if ('refusal' in compiled) throw new FilterPolicyError(compiled.refusal);
  return compiled.policy;
}

/** Why SNS cannot express `filter` (with the organization restriction, if any), or undefined if it can. */
export function checkFilterExpressible(
  filter: SubscriberFilter | undefined,
  organizationIds?: readonly string[],
): string | undefined {
  const compiled = compile(filter, organizationIds);
  return 'refusal' in compiled ? compiled.refusal : undefined;
}
