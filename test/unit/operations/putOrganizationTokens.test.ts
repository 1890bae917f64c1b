// put-tokens' plan: one file of tokens by name becomes each shard's whole value, as the poller reads them
// (the shard of each name from the one contract); a token missing, a name no organization uses or a shard
// over 64 KB refuses the file before anything is written, never quoting a token.
import { describe, expect, it } from 'vitest';
import { tokenShardsOf } from '../../../shared/contracts/organizationTokensSecret.js';
import {
  planTokenShards,
  putOrganizationTokens,
  TokensFileError,
} from '../../../shared/operations/putOrganizationTokens.js';

const organizations = Array.from({ length: 1000 }, (_, n) => ({
  name: `School ${n}`,
  token: { env: `SCHOOL_${n}_TOKEN` },
}));
const tokens = Object.fromEntries(
  organizations.map(({ token }, n) => [token.env, `tok-${n}-${'x'.repeat(120)}`]),
);

describe('planTokenShards', () => {
  it('puts 1,000 tokens in 5 secrets under 64 KB each, every token in the shard the poller reads it from', () => {
    const shards = planTokenShards(organizations, tokens, 'MealOrderNotifier/', 'tokens.json');
    expect(shards.map(({ secretName }) => secretName)).toEqual([
      'MealOrderNotifier/organization-tokens',
      'MealOrderNotifier/organization-tokens-2',
      'MealOrderNotifier/organization-tokens-3',
      'MealOrderNotifier/organization-tokens-4',
      'MealOrderNotifier/organization-tokens-5',
    ]);
    const layout = tokenShardsOf(organizations.map(({ token }) => token.env));
    shards.forEach((shard, index) => {
      expect(Buffer.byteLength(shard.secretString)).toBeLessThan(65_536);
      for (const name of Object.keys(JSON.parse(shard.secretString)))
        expect(layout.shardOf(name)).toBe(index);
    });
    expect(shards.reduce((sum, shard) => sum + shard.tokens, 0)).toBe(1000);
  });

  it('refuses a file missing a token or naming no organization, naming each, and quotes no token', () => {
    const { SCHOOL_3_TOKEN: _dropped, ...rest } = tokens;
    const attempt = () =>
      planTokenShards(organizations, { ...rest, SCHOOL_3_TOKN: 'tok-typo' }, 'P/', 'tokens.json');
    expect(attempt).toThrow(TokensFileError);
    expect(attempt).toThrow(
      'tokens.json: 2 problems\n' +
        '  SCHOOL_3_TOKEN: no token given (needed by $.organizations[3].token, School 3); add "SCHOOL_3_TOKEN": "<its token>"\n' +
        "  SCHOOL_3_TOKN: no organization's token in the config is named so; remove it or fix the name",
    );
    expect(() => planTokenShards(organizations, ['tok-1'], 'P/', 'tokens.json')).toThrow(
      'holds no JSON object of tokens by name',
    );
  });

  it('refuses a shard Secrets Manager could not hold, naming the secret', () => {
    const two = organizations.slice(0, 2);
    const huge = { SCHOOL_0_TOKEN: 'x'.repeat(40_000), SCHOOL_1_TOKEN: 'y'.repeat(40_000) };
    expect(() => planTokenShards(two, huge, 'P/', 'tokens.json')).toThrow(
      "P/organization-tokens would hold 79 KB, over Secrets Manager's 64 KB",
    );
  });
});

describe('putOrganizationTokens', () => {
  it('writes each shard whole, in order, and stops at the first failure', async () => {
    const shards = planTokenShards(organizations, tokens, 'P/', 'tokens.json');
    const put: string[] = [];
    const writer = {
      put: async (name: string) => {
        if (name === 'P/organization-tokens-3') throw new Error('denied');
        put.push(name);
      },
    };
    await expect(putOrganizationTokens(shards, writer, () => {})).rejects.toThrow('denied');
    expect(put).toEqual(['P/organization-tokens', 'P/organization-tokens-2']);
  });
});
