// put-tokens' plan: one file of tokens by name becomes each shard's whole value, as the poller reads them
// (the shard of each name from the one contract); a token missing, a name no organization uses or a shard
// over 64 KB refuses the file before anything is written, never quoting a token.
import { describe, expect, it } from 'vitest';
import { secretShards, tokenShardsOf } from '../../../shared/contracts/secretShards.js';
import {
  planSecretShards,
  planTokenShards,
  putSecretShards,
  SecretsFileError,
} from '../../../shared/operations/putSecrets.js';

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
    expect(shards.reduce((sum, shard) => sum + shard.values, 0)).toBe(1000);
  });

  it('refuses a file missing a token or naming no organization, naming each, and quotes no token', () => {
    const { SCHOOL_3_TOKEN: _dropped, ...rest } = tokens;
    const attempt = () =>
      planTokenShards(organizations, { ...rest, SCHOOL_3_TOKN: 'tok-typo' }, 'P/', 'tokens.json');
    expect(attempt).toThrow(SecretsFileError);
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

describe('putSecretShards', () => {
  it('writes each shard whole, in order, and stops at the first failure', async () => {
    const shards = planTokenShards(organizations, tokens, 'P/', 'tokens.json');
    const put: string[] = [];
    const writer = {
      put: async (name: string) => {
        if (name === 'P/organization-tokens-3') throw new Error('denied');
        put.push(name);
      },
    };
    await expect(putSecretShards(shards, writer, () => {})).rejects.toThrow('denied');
    expect(put).toEqual(['P/organization-tokens', 'P/organization-tokens-2']);
  });
});

describe('planSecretShards, every family', () => {
  const hooks = Array.from({ length: 250 }, (_, n) => `HOOK_${n}_SECRET`);
  const config = {
    organizations: organizations.slice(0, 2),
    subscribers: [
      ...hooks.map((name, n) => ({
        id: `hooks-${n}`,
        type: 'webhook' as const,
        url: `https://hooks.example.test/${n}`,
        secret: [{ env: name }],
      })),
      { id: 'board', type: 'slack' as const, botToken: { env: 'BOARD_BOT_TOKEN' }, channel: 'C1' },
    ],
  } as unknown as Parameters<typeof planSecretShards>[0];
  const values: Record<string, string> = {
    SCHOOL_0_TOKEN: 'tok-0',
    SCHOOL_1_TOKEN: 'tok-1',
    BOARD_BOT_TOKEN: 'xoxb-board',
    ...Object.fromEntries(hooks.map((name, n) => [name, `whsec_${n}`])),
  };

  it('puts the tokens in the tokens shards and the subscribers’ secrets in their own, each where the delivery function reads it', () => {
    const shards = planSecretShards(
      config,
      ['organization-tokens', 'subscriber-secrets'],
      values,
      'P/',
      'secrets.json',
    );
    expect(shards.map(({ secretName, family }) => [secretName, family])).toEqual([
      ['P/organization-tokens', 'organization-tokens'],
      ['P/subscriber-secrets', 'subscriber-secrets'],
      ['P/subscriber-secrets-2', 'subscriber-secrets'],
    ]);
    expect(JSON.parse(shards[0]?.secretString ?? '')).toEqual({
      SCHOOL_0_TOKEN: 'tok-0',
      SCHOOL_1_TOKEN: 'tok-1',
    });
    const reader = secretShards('subscriber-secrets', 2);
    const put = new Map<string, string>();
    for (const shard of shards.slice(1)) {
      for (const [name, value] of Object.entries(JSON.parse(shard.secretString) as Record<string, string>)) {
        expect(`P/${reader.secretOf(name)}`).toBe(shard.secretName);
        put.set(name, value);
      }
    }
    expect(put.size).toBe(251);
    expect(put.get('BOARD_BOT_TOKEN')).toBe('xoxb-board');
  });

  it('refuses a missing subscriber secret and an unknown name, naming each and the subscriber, quoting no value', () => {
    const { HOOK_7_SECRET: _dropped, BOARD_BOT_TOKEN: _board, ...rest } = values;
    const attempt = () =>
      planSecretShards(
        config,
        ['organization-tokens', 'subscriber-secrets'],
        { ...rest, HOOK_7_SECRT: 'whsec_typo' },
        'P/',
        'secrets.json',
      );
    expect(attempt).toThrow(SecretsFileError);
    expect(attempt).toThrow(
      'secrets.json: 3 problems\n' +
        '  HOOK_7_SECRET: no value given (needed by $.subscribers[7].secret, subscriber hooks-7); add "HOOK_7_SECRET": "<its webhook signing secret, whsec_...>"\n' +
        '  BOARD_BOT_TOKEN: no value given (needed by $.subscribers[250].botToken, subscriber board); add "BOARD_BOT_TOKEN": "<its Slack bot token>"\n' +
        "  HOOK_7_SECRT: no organization's token nor subscriber's secret in the config is named so; remove it or fix the name",
    );
    try {
      attempt();
    } catch (error) {
      expect(String(error)).not.toMatch(/whsec_\d|whsec_typo|xoxb|tok-/);
    }
  });

  it('leaves the subscriber secrets out of put-tokens, which refuses their names as before', () => {
    expect(() => planSecretShards(config, ['organization-tokens'], values, 'P/', 'tokens.json')).toThrow(
      "BOARD_BOT_TOKEN: no organization's token in the config is named so",
    );
    const tokensOnly = planSecretShards(
      config,
      ['organization-tokens'],
      { SCHOOL_0_TOKEN: 'tok-0', SCHOOL_1_TOKEN: 'tok-1' },
      'P/',
      'tokens.json',
    );
    expect(tokensOnly.map(({ secretName }) => secretName)).toEqual(['P/organization-tokens']);
  });

  it('gives a name that is both a token and a subscriber secret its one value in both families', () => {
    const shared = {
      organizations: organizations.slice(0, 1),
      subscribers: [
        { id: 'h', type: 'webhook', url: 'https://h.example.test/', secret: [{ env: 'SCHOOL_0_TOKEN' }] },
      ],
    } as unknown as Parameters<typeof planSecretShards>[0];
    const shards = planSecretShards(
      shared,
      ['organization-tokens', 'subscriber-secrets'],
      { SCHOOL_0_TOKEN: 'same' },
      'P/',
      'secrets.json',
    );
    expect(shards.map(({ secretString }) => secretString)).toEqual([
      '{"SCHOOL_0_TOKEN":"same"}',
      '{"SCHOOL_0_TOKEN":"same"}',
    ]);
  });
});
