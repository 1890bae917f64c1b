// A small, faithful evaluator of SNS subscription filter policies in the MessageAttributes scope, for
// the exact-string-match subset the compiler emits: the test's independent stand-in for SNS itself.
import type { MessageAttributeValue } from '@aws-sdk/client-sns';

/** Attribute name → allowed values, as SNS reads the policy's JSON. */
export type FilterPolicyDocument = Readonly<Record<string, readonly unknown[] | undefined>>;

/**
 * Whether SNS would deliver a message with `attributes` to a subscription with `policy`: no policy lets
 * everything through; otherwise every key of the policy must name an attribute the message carries whose
 * String value, or one of whose String.Array values, equals (case-sensitively) one of the key's values.
 */
export function snsPolicyMatches(
  policy: FilterPolicyDocument | undefined,
  attributes: Readonly<Record<string, MessageAttributeValue>>,
): boolean {
  if (policy === undefined) return true;
  return Object.entries(policy).every(([key, allowed]) => {
    if (!Array.isArray(allowed) || allowed.length === 0) {
      throw new Error(`policy key ${key} must list at least one value; SNS would refuse the policy`);
    }
    for (const value of allowed) {
      // Anything but a plain string (prefix, anything-but, numeric, exists) is outside the subset.
      if (typeof value !== 'string') throw new Error(`policy key ${key} holds a non-string condition`);
    }
    const attribute = attributes[key];
    // Policies compare only String and String.Array attributes.
    if (attribute?.StringValue === undefined) return false;
    if (attribute.DataType === 'String') return allowed.includes(attribute.StringValue);
    if (attribute.DataType !== 'String.Array') return false;
    // SNS reads a String.Array as a JSON array; a policy matches when any of its strings does.
    const values: unknown = JSON.parse(attribute.StringValue);
    if (!Array.isArray(values))
      throw new Error(`attribute ${key} is a String.Array that is not a JSON array`);
    return values.some((value) => typeof value === 'string' && allowed.includes(value));
  });
}
