import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ForbiddenError,
  MalformedResponseError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  UnexpectedStatusError,
} from '../../../shared/api/errors.js';
import {
  type ApiTarget,
  apiTargetOf,
  describeApiFailure,
  explainApiFailure,
} from '../../../shared/config/explainApiFailure.js';
import { parseConfig } from '../../../shared/config/loadConfig.js';

const context = { organization: 'South Academy', endpoint: 'GET /establishments' };
const target: ApiTarget = {
  organization: 'South',
  id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
  idKey: '$.organizations[1].id',
  token: 'the value of SOUTH_TOKEN',
  baseUrlKey: '$.api.baseUrl',
  baseUrl: 'https://meals.example.org/api/v1/admin',
  budgetKey: '$.api.requestsPerMinute',
};

/** The same organization, its connection given by the flags' environment variables. */
const fromEnvironment: ApiTarget = {
  organization: target.id,
  id: target.id,
  idKey: 'MEAL_API_ORGANIZATION',
  token: 'the value of MEAL_API_TOKEN',
  baseUrlKey: 'MEAL_API_BASE_URL',
  baseUrl: target.baseUrl,
};

function refused(code: string): Error {
  return Object.assign(new Error('fetch failed'), { cause: Object.assign(new Error(code), { code }) });
}

describe('explainApiFailure', () => {
  it.each([
    [
      new BadRequestError(context),
      /malformed \(400\).*check that \$\.organizations\[1\]\.id is the organization's uuid/,
    ],
    [
      new UnauthorizedError(context),
      /^token rejected: put a new token; the API answered 401 \(unauthorized\): the value of SOUTH_TOKEN is wrong, expired or revoked$/,
    ],
    [
      new ForbiddenError(context),
      /^token rejected: put a new token; the API answered 403 \(forbidden\): the token may not read organization 3f2b8c1e-.*: check \$\.organizations\[1\]\.id, or set the value of SOUTH_TOKEN to the token that belongs to it$/,
    ],
    [new NotFoundError(context), /404.*\$\.api\.baseUrl.*must end in \/api\/v1\/admin/],
    [
      new RateLimitedError(context, 30_000),
      /rate limit \(429\): something else is using it too.*, or \$\.api\.requestsPerMinute is above/,
    ],
    [
      new ServerError(context, 503),
      /failed on its side \(503\) on GET \/establishments; this is not a config problem/,
    ],
    [
      new TimeoutError(context, new Error('x'), 'headers'),
      /no answer from https:\/\/meals\.example\.org in time/,
    ],
    [
      new MalformedResponseError(context, 200, 'not JSON'),
      /answered GET \/establishments, but not as the Admin API does/,
    ],
  ])('puts %s in plain words', (error, words) => {
    expect(explainApiFailure(error, target)).toMatch(words);
  });

  it('says what a network failure means, from the innermost error code', () => {
    expect(explainApiFailure(new NetworkError(context, refused('ECONNREFUSED')), target)).toBe(
      'cannot reach https://meals.example.org (connection refused: nothing listens at that address and port): ' +
        "check $.api.baseUrl, DNS and this machine's network",
    );
    expect(explainApiFailure(new NetworkError(context, refused('ENOTFOUND')), target)).toContain(
      'no such host',
    );
    expect(explainApiFailure(new NetworkError(context, refused('EPROTO')), target)).toContain('(EPROTO)');
  });

  it("keeps the API's own words for the rest, without the organization's name, which the caller puts first", () => {
    expect(explainApiFailure(new UnexpectedStatusError(context, 418), target)).toBe(
      'unexpected response (418) on GET /establishments',
    );
  });
});

describe('describeApiFailure', () => {
  it('puts the organization first, by name, and names the key to fix where the connection came from', () => {
    const unreachable = new NetworkError(context, refused('ECONNREFUSED'));
    expect(describeApiFailure(new UnauthorizedError(context), target)).toBe(
      'South: token rejected: put a new token; the API answered 401 (unauthorized): the value of SOUTH_TOKEN is wrong, expired or revoked',
    );
    expect(describeApiFailure(unreachable, target)).toMatch(/^South: cannot reach .*check \$\.api\.baseUrl,/);
    expect(describeApiFailure(unreachable, fromEnvironment)).toMatch(
      /^3f2b8c1e-[-0-9a-f]+: cannot reach .*check MEAL_API_BASE_URL,/,
    );
    expect(describeApiFailure(new ForbiddenError(context), fromEnvironment)).toContain(
      ': check MEAL_API_ORGANIZATION,',
    );
    expect(describeApiFailure(new RateLimitedError(context, undefined), fromEnvironment)).not.toContain(
      'requestsPerMinute',
    );
  });
});

describe('apiTargetOf', () => {
  it("finds an organization of the config by id or index, with its JSON path and token's variable", () => {
    const config = parseConfig({
      api: { baseUrl: 'https://meals.example.org/api/v1/admin' },
      organizations: [
        { id: target.id.replace('3f', '4f'), name: 'North', token: { env: 'NORTH_TOKEN' }, timeZone: 'UTC' },
        { id: target.id, name: 'South', token: { env: 'SOUTH_TOKEN' }, timeZone: 'UTC' },
      ],
    });
    expect(apiTargetOf(config, target.id)).toEqual(target);
    expect(apiTargetOf(config, 1)).toEqual(target);
    expect(() => apiTargetOf(config, 'not-there')).toThrow(RangeError);
  });
});
