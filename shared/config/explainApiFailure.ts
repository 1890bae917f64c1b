// Why an Admin API request failed, in plain words, with what to fix: the one failure line of every command
// that reaches the API (`orders`, `establishments`, `poll`, `check-config --ping`, and so `status`'s last
// error, and the AWS poller). It names the organization by name and the key or variable to fix, wherever the
// connection came from: the config (`$.api.baseUrl`, the variable `$.organizations[0].token` names) or the
// flags and their environment variables (`MEAL_API_BASE_URL`, `MEAL_API_TOKEN`).
import {
  AdminApiError,
  BadRequestError,
  ForbiddenError,
  MalformedResponseError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from '../api/errors.js';
import { TOKEN_REJECTED } from '../contracts/tokenRejected.js';
import { networkWords } from '../errors/networkWords.js';
import { jsonPath } from './configProblems.js';
import type { Config } from './configSchema.js';

/** The organization a request was for, and where each part of its connection is set. */
export interface ApiTarget {
  /** How the line names the organization: its name when known (from a config), else its uuid. */
  organization: string;
  id: string;
  /** Where the organization's uuid is set, e.g. `$.organizations[1].id` or `MEAL_API_ORGANIZATION`. */
  idKey: string;
  /** Where its token is set, as a phrase, e.g. `the value of SOUTH_TOKEN` or `the token given with --token`. */
  token: string;
  /** Where the base URL is set, e.g. `$.api.baseUrl` or `MEAL_API_BASE_URL`. */
  baseUrlKey: string;
  baseUrl: string;
  /** Where the request budget is set, when the connection has one (a config's `$.api.requestsPerMinute`). */
  budgetKey?: string;
}

/** The target of the organization with this id (or at this index) in the config. */
export function apiTargetOf(config: Config, organization: string | number): ApiTarget {
  const index =
    typeof organization === 'number'
      ? organization
      : config.organizations.findIndex(({ id }) => id === organization);
  const entry = config.organizations[index];
  if (!entry) throw new RangeError(`no organization ${organization} in the config`);
  return {
    organization: entry.name,
    id: entry.id,
    idKey: `${jsonPath(['organizations', index])}.id`,
    token: `the value of ${entry.token.env}`,
    baseUrlKey: '$.api.baseUrl',
    baseUrl: config.api.baseUrl,
    budgetKey: '$.api.requestsPerMinute',
  };
}

/** The failure line: the organization, then why the request failed and what to fix. */
export function describeApiFailure(error: unknown, target: ApiTarget): string {
  return `${target.organization}: ${explainApiFailure(error, target)}`;
}

/** The explanation alone, without the organization (describeApiFailure puts it first). */
export function explainApiFailure(error: unknown, target: ApiTarget): string {
  const { idKey, token, baseUrlKey } = target;
  const origin = new URL(target.baseUrl).origin;
  if (error instanceof BadRequestError) {
    return `the API refused the request as malformed (400), which usually means it did not accept the organization header: check that ${idKey} is the organization's uuid`;
  }
  // A rejected token says so first, in the words status, /healthz and the alarm mark the organization with.
  if (error instanceof UnauthorizedError) {
    return `${TOKEN_REJECTED}; the API answered 401 (unauthorized): ${token} is wrong, expired or revoked`;
  }
  if (error instanceof ForbiddenError) {
    return `${TOKEN_REJECTED}; the API answered 403 (forbidden): the token may not read organization ${target.id}: check ${idKey}, or set ${token} to the token that belongs to it`;
  }
  if (error instanceof NotFoundError) {
    return `the API answered 404 (not found): ${baseUrlKey} does not lead to the Admin API; it must end in /api/v1/admin`;
  }
  if (error instanceof RateLimitedError) {
    const budget = target.budgetKey === undefined ? '' : `, or ${target.budgetKey} is above its real limit`;
    return `the token is over its rate limit (429): something else is using it too (a runner, a script)${budget}; the config may well be right, and it passes within a minute`;
  }
  if (error instanceof ServerError) {
    return `the API failed on its side (${error.status}) on ${error.endpoint}; this is not a config problem, and it usually passes`;
  }
  if (error instanceof TimeoutError) {
    return `no answer from ${origin} in time: check ${baseUrlKey}, and that this machine can reach it (firewall, proxy)`;
  }
  if (error instanceof NetworkError) {
    return `cannot reach ${origin} (${causeOf(error)}): check ${baseUrlKey}, DNS and this machine's network`;
  }
  if (error instanceof MalformedResponseError) {
    return `${origin} answered ${error.endpoint}, but not as the Admin API does: check that ${baseUrlKey} is the Admin API's base URL`;
  }
  if (error instanceof AdminApiError) {
    // Its own words, which already say what to check; the organization's name is describeApiFailure's.
    const prefix = `${error.organization}: `;
    return error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  }
  return (error as Error)?.message ?? String(error);
}

/** The network failure in words, from the innermost error code found. */
function causeOf(error: NetworkError): string {
  for (let cause: unknown = error.cause; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return networkWords(code);
  }
  return 'network failure';
}
