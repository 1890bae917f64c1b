// Where a secret lives, never the secret itself: the config names an environment variable, and a
// resolver reads it at run time. More forms (e.g. `{ "secretsManager": "<arn>" }`) join SecretRefSchema.
import * as z from 'zod';
import { strictObject } from './strictObject.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The shape a secret must take, quoted in every message that refuses one. */
export const SECRET_REF_HINT = '{ "env": "NAME" }';

export const EnvSecretRefSchema = strictObject(
  {
    // The name is never echoed: a secret pasted here by mistake must not reach a log.
    env: z.string().regex(ENV_NAME, {
      error: 'must name an environment variable: letters, digits and "_", not starting with a digit',
    }),
  },
  (issue) => {
    if (issue.code !== 'invalid_type') return undefined;
    // A plain string here is most likely the secret itself, so the message must not quote it.
    if (typeof issue.input === 'string') {
      return `secrets cannot be written inline: put the value in an environment variable and write ${SECRET_REF_HINT} here`;
    }
    if (issue.input === undefined) return undefined;
    return `expected a secret reference such as ${SECRET_REF_HINT}`;
  },
);
export type EnvSecretRef = z.infer<typeof EnvSecretRefSchema>;

/** Every accepted form of secret reference; today only environment variables. */
export const SecretRefSchema = EnvSecretRefSchema;
export type SecretRef = z.infer<typeof SecretRefSchema>;

/**
 * One key per distinct secret, so references to the same variable resolve once (a Secrets Manager read
 * costs money and latency) and share the value.
 */
export function secretRefKey(ref: SecretRef): string {
  return `env:${ref.env}`;
}

/** How a reference reads in messages, e.g. `environment variable HOOK_SECRET`. */
export function describeSecretRef(ref: SecretRef): string {
  return `environment variable ${ref.env}`;
}
