import { describe, expect, it } from 'vitest';
import { explainPingFailure, type PingTarget } from '../../../cli/checkConfig/explainPingFailure.js';
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
} from '../../../shared/api/errors.js';

const context = { organization: 'South Academy', endpoint: 'GET /establishments' };
const target: PingTarget = {
  path: '$.organizations[1]',
  id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
  tokenVariable: 'SOUTH_TOKEN',
  baseUrl: 'https://meals.example.org/api/v1/admin',
};

function refused(code: string): Error {
  return Object.assign(new Error('fetch failed'), { cause: Object.assign(new Error(code), { code }) });
}

describe('explainPingFailure', () => {
  it.each([
    [
      new BadRequestError(context),
      /malformed \(400\).*check that \$\.organizations\[1\]\.id is the organization's uuid/,
    ],
    [
      new UnauthorizedError(context),
      /rejected the token \(401\): the value of SOUTH_TOKEN is wrong, expired or revoked/,
    ],
    [
      new ForbiddenError(context),
      /may not read organization 3f2b8c1e-.* \(403\): check \$\.organizations\[1\]\.id/,
    ],
    [new NotFoundError(context), /404.*api\.baseUrl.*must end in \/api\/v1\/admin/],
    [new RateLimitedError(context, 30_000), /rate limit \(429\).*try again in a minute/],
    [new ServerError(context, 503), /failed on its side \(503\); this is not a config problem/],
    [
      new TimeoutError(context, new Error('x'), 'headers'),
      /no answer from https:\/\/meals\.example\.org in time/,
    ],
    [new MalformedResponseError(context, 200, 'not JSON'), /answered, but not as the Admin API does/],
  ])('puts %s in plain words', (error, words) => {
    expect(explainPingFailure(error, target)).toMatch(words);
  });

  it('says what a network failure means, from the innermost error code', () => {
    expect(explainPingFailure(new NetworkError(context, refused('ECONNREFUSED')), target)).toBe(
      'cannot reach https://meals.example.org (connection refused: nothing listens at that address and port): ' +
        "check api.baseUrl, DNS and this machine's network",
    );
    expect(explainPingFailure(new NetworkError(context, refused('ENOTFOUND')), target)).toContain(
      'no such host',
    );
    expect(explainPingFailure(new NetworkError(context, refused('EPROTO')), target)).toContain('(EPROTO)');
  });
});
