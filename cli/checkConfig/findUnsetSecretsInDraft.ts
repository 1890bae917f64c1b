// The unset secrets of a config the schema refused: each reference that is well formed where a secret
// belongs is looked up all the same, so that one check-config run names an unset variable next to, say,
// the same subscriber's malformed URL. Paths and rotation rules are those of findMissingSecrets.
import { jsonPath } from '../../shared/config/configProblems.js';
import type { ConfigProblem } from '../../shared/config/errors.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function findUnsetSecretsInDraft(json: unknown, env: NodeJS.ProcessEnv): ConfigProblem[] {
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
  listOf(root?.organizations).forEach((organization, index) => {
    report(['organizations', index, 'token'], variableOf(recordOf(organization)?.token));
  });
  listOf(root?.subscribers).forEach((entry, index) => {
    const subscriber = recordOf(entry);
    const at = ['subscribers', index];
    if (subscriber?.type === 'slack') report([...at, 'webhookUrl'], variableOf(subscriber.webhookUrl));
    if (subscriber?.type !== 'webhook') return;
    const secrets = Array.isArray(subscriber.secret) ? subscriber.secret : [subscriber.secret];
    const variables = secrets.map(variableOf);
    // A rotation under way: while one of the list is set, the others are not a problem.
    if (variables.some((variable) => variable !== undefined && !isUnset(env[variable]))) return;
    variables.forEach((variable, position) => {
      report(secrets.length === 1 ? [...at, 'secret'] : [...at, 'secret', position], variable);
    });
  });
  report(['smtp', 'url'], variableOf(recordOf(root?.smtp)?.url));
  return problems;
}

/** The variable a `{ "env": "NAME" }` names; undefined for anything else, which the schema reports. */
function variableOf(ref: unknown): string | undefined {
  const name = recordOf(ref)?.env;
  return typeof name === 'string' && ENV_NAME.test(name) ? name : undefined;
}

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function isUnset(value: string | undefined): boolean {
  return value === undefined || value === '';
}
