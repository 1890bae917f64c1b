// The unset secrets of a config the schema refused: each reference that is well formed where a secret
// belongs is looked up all the same, so that one run (check-config, poll, send-test…) names an unset
// variable next to, say, the same subscriber's malformed URL. Paths and rotation rules are those of
// findMissingSecrets.
import { jsonPath } from './configProblems.js';
import type { ConfigProblem } from './errors.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A draft entry of `organizations` or `subscribers`, as written. */
export type DraftEntry = Record<string, unknown>;

/**
 * The secrets a command needs: all of them (check-config, poll); one subscriber's, and smtp.url when it
 * sends e-mail (send-test); or the token of the organization `picks` chooses (orders with a config).
 */
export type SecretsNeeded =
  | 'all'
  | { subscriber: string }
  | { organization: (organizations: readonly (DraftEntry | undefined)[]) => number };

export function findUnsetSecretsInDraft(
  json: unknown,
  env: NodeJS.ProcessEnv,
  needed: SecretsNeeded = 'all',
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const report = (segments: PropertyKey[], variable: string | undefined) => {
    if (variable !== undefined && isUnset(env[variable])) {
      problems.push({
        path: jsonPath(segments),
        message: `environment variable ${variable} is not set or is empty`,
      });
    }
  };
  const root = recordOf(json);
  const organizations = listOf(root?.organizations).map(recordOf);
  const picked =
    typeof needed === 'object' && 'organization' in needed ? needed.organization(organizations) : -1;
  organizations.forEach((organization, index) => {
    if (needed !== 'all' && index !== picked) return;
    report(['organizations', index, 'token'], variableOf(organization?.token));
  });
  const subscribers = listOf(root?.subscribers).map(recordOf);
  const wanted = (subscriber: DraftEntry | undefined) =>
    needed === 'all' || ('subscriber' in needed && subscriber?.id === needed.subscriber);
  subscribers.forEach((subscriber, index) => {
    if (!wanted(subscriber)) return;
    const at = ['subscribers', index];
    if (subscriber?.type === 'slack') {
      const field = subscriber.botToken === undefined ? 'webhookUrl' : 'botToken';
      report([...at, field], variableOf(subscriber[field]));
    }
    if (subscriber?.type !== 'webhook') return;
    const secrets = Array.isArray(subscriber.secret) ? subscriber.secret : [subscriber.secret];
    const variables = secrets.map(variableOf);
    // A rotation under way: while one of the list is set, the others are not a problem.
    if (variables.some((variable) => variable !== undefined && !isUnset(env[variable]))) return;
    variables.forEach((variable, position) => {
      report(secrets.length === 1 ? [...at, 'secret'] : [...at, 'secret', position], variable);
    });
  });
  const sendsEmail = subscribers.some((subscriber) => wanted(subscriber) && subscriber?.type === 'email');
  if (needed === 'all' || sendsEmail) report(['smtp', 'url'], variableOf(recordOf(root?.smtp)?.url));
  return problems;
}

/** The variable a `{ "env": "NAME" }` names; undefined for anything else, which the schema reports. */
function variableOf(ref: unknown): string | undefined {
  const name = recordOf(ref)?.env;
  return typeof name === 'string' && ENV_NAME.test(name) ? name : undefined;
}

function recordOf(value: unknown): DraftEntry | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as DraftEntry)
    : undefined;
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isUnset(value: string | undefined): boolean {
  return value === undefined || value === '';
}
