// Why an Admin API request failed, in plain words, with what to check in the config: one explanation for
// `check-config --ping` and for the runner's failure lines (and so `status`'s last error). The API's own
// error messages name the status and the endpoint; these say what it usually means for a notifier config.
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
import { networkWords } from '../errors/networkWords.js';
import { jsonPath } from './configProblems.js';
import type { Config } from './configSchema.js';

/** The organization of the config a request was for. */
export interface ApiTarget {
  /** Its place in the config, e.g. `$.organizations[1]`. */
  path: string;
  id: string;
  /** The environment variable holding its token. */
  tokenVariable: string;
  baseUrl: string;
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
    path: jsonPath(['organizations', index]),
    id: entry.id,
    tokenVariable: entry.token.env,
    baseUrl: config.api.baseUrl,
  };
}

/** The explanation, without the organization's name: callers put it first. */
export function explainApiFailure(error: unknown, target: ApiTarget): string {
  const { path, tokenVariable } = target;
  const origin = new URL(target.baseUrl).origin;
  if (error instanceof BadRequestError) {
    return `the API refused the request as malformed (400), which usually means it did not accept the organization header: check that ${path}.id is the organization's uuid`;
  }
  if (error instanceof UnauthorizedError) {
    return `the API rejected the token (401): the value of ${tokenVariable} is wrong, expired or revoked; set it to a current API token`;
  }
  if (error instanceof ForbiddenError) {
    return `the token is valid but may not read organization ${target.id} (403): check ${path}.id, or give this organization the token that belongs to it`;
  }
  if (error instanceof NotFoundError) {
    return `the API answered 404 (not found): api.baseUrl does not lead to the Admin API; it must end in /api/v1/admin`;
  }
  if (error instanceof RateLimitedError) {
    return 'the token is over its rate limit (429): something else is using it too (a runner, a script), or api.requestsPerMinute is above its real limit; the config may well be right, and it passes within a minute';
  }
  if (error instanceof ServerError) {
    return `the API failed on its side (${error.status}) on ${error.endpoint}; this is not a config problem, and it usually passes`;
  }
  if (error instanceof TimeoutError) {
    return `no answer from ${origin} in time: check api.baseUrl, and that this machine can reach it (firewall, proxy)`;
  }
  if (error instanceof NetworkError) {
    return `cannot reach ${origin} (${causeOf(error)}): check api.baseUrl, DNS and this machine's network`;
  }
  if (error instanceof MalformedResponseError) {
    return `${origin} answered ${error.endpoint}, but not as the Admin API does: check that api.baseUrl is the Admin API's base URL`;
  }
  if (error instanceof AdminApiError) {
    // Its own words, which already say what to check; the organization's name is the caller's to put.
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
