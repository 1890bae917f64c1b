// A small, faithful evaluator of SNS subscription filter policies in the MessageAttributes scope, for
// the subset the compiler emits (exact strings, `anything-but` a list of strings, and a top-level `$or` of
// such policies): the test's independent stand-in for SNS itself.
import type { MessageAttributeValue } from '@aws-sdk/client-sns';

/** Attribute name → allowed values, as SNS reads the policy's JSON. */
export type FilterPolicyDocument = Readonly<Record<string, readonly unknown[] | undefined>>;

/**
 * Whether SNS would deliver a message with `attributes` to a subscription with `policy`: no policy lets
 * everything through; otherwise every key of the policy must name an attribute the message carries whose
 * String value, or one of whose String.Array values, meets one of the key's conditions: equals
 * (case-sensitively) a string, or equals none of an `anything-but` list (which an absent attribute fails).
 */
export function snsPolicyMatches(
  policy: FilterPolicyDocument | undefined,
  attributes: Readonly<Record<string, MessageAttributeValue>>,
): boolean {
  if (policy === undefined) return true;
  const branches = orBranches(policy);
  if (branches !== undefined) {
    // An `$or` ANDs with the policy's other keys: the message must meet them and at least one branch.
    const { $or: _, ...rest } = policy;
    return (
      (Object.keys(rest).length === 0 || snsPolicyMatches(rest, attributes)) &&
      branches.some((branch) => snsPolicyMatches(branch, attributes))
    );
  }
  return Object.entries(policy).every(([key, allowed]) => {
    if (!Array.isArray(allowed) || allowed.length === 0) {
      throw new Error(`policy key ${key} must list at least one value; SNS would refuse the policy`);
    }
    const conditions = allowed.map((value) => conditionOf(key, value));
    const meets = (candidate: string) => conditions.some((condition) => condition(candidate));
    const attribute = attributes[key];
    // Policies compare only String and String.Array attributes.
    if (attribute?.StringValue === undefined) return false;
    if (attribute.DataType === 'String') return meets(attribute.StringValue);
    if (attribute.DataType !== 'String.Array') return false;
    // SNS reads a String.Array as a JSON array; a policy matches when any of its strings does.
    const values: unknown = JSON.parse(attribute.StringValue);
    if (!Array.isArray(values))
      throw new Error(`attribute ${key} is a String.Array that is not a JSON array`);
    return values.some((value) => typeof value === 'string' && meets(value));
  });
}

function conditionOf(key: string, value: unknown): (candidate: string) => boolean {
  if (typeof value === 'string') return (candidate) => candidate === value;
  const denied = (value as { 'anything-but'?: unknown } | null)?.['anything-but'];
  if (
    typeof value === 'object' &&
    value !== null &&
    Object.keys(value).length === 1 &&
    Array.isArray(denied) &&
    denied.every((entry) => typeof entry === 'string')
  ) {
    return (candidate) => !denied.includes(candidate);
  }
  // Prefix, numeric, exists and the rest are outside the subset.
  throw new Error(`policy key ${key} holds a condition outside the subset: ${JSON.stringify(value)}`);
}

/**
 * The branches of a policy's `$or`, when SNS reads it as one (AWS, "AND/OR logic"): an array of at least two
 * objects none of whose field names is a reserved keyword. Otherwise `$or` is an ordinary attribute name.
 */
function orBranches(policy: FilterPolicyDocument): FilterPolicyDocument[] | undefined {
  const branches: unknown = policy.$or;
  if (!Array.isArray(branches) || branches.length < 2) return undefined;
  const reserved = new Set([
    'numeric',
    'prefix',
    'suffix',
    'anything-but',
    'exists',
    'equals-ignore-case',
    'cidr',
  ]);
  const objects = branches.every(
    (branch) =>
      typeof branch === 'object' &&
      branch !== null &&
      !Array.isArray(branch) &&
      Object.keys(branch).every((name) => !reserved.has(name)),
  );
  return objects ? (branches as FilterPolicyDocument[]) : undefined;
}
