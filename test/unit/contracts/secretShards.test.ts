// The one contract of the secrets' shards, for both families: the tokens keep the names deployed stacks
// have, the subscriber secrets get their own, each family's names are the config's references of that
// kind alone, and one hash decides a name's shard whatever its family.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import {
  familyNamesOf,
  putSecretsCommand,
  SECRET_VALUE_MAX_BYTES,
  secretShards,
  secretShardsOf,
  shardCount,
  shardSecret,
  tokenShardSecret,
} from '../../../shared/contracts/secretShards.js';
import { exampleConfig } from '../../support/configFixtures.js';

const names = (count: number, stem: string) => Array.from({ length: count }, (_, n) => `${stem}_${n}`);

describe('the shards of the secrets', () => {
  it('names the tokens shards as before and the subscriber secrets shards apart', () => {
    expect([0, 1, 4].map((shard) => shardSecret('organization-tokens', shard))).toEqual([
      'organization-tokens',
      'organization-tokens-2',
      'organization-tokens-5',
    ]);
    expect([0, 1, 4].map(tokenShardSecret)).toEqual([
      'organization-tokens',
      'organization-tokens-2',
      'organization-tokens-5',
    ]);
    expect([0, 1, 4].map((shard) => shardSecret('subscriber-secrets', shard))).toEqual([
      'subscriber-secrets',
      'subscriber-secrets-2',
      'subscriber-secrets-5',
    ]);
  });

  it('needs a shard per 200 distinct names, whatever the family', () => {
    expect(shardCount([])).toBe(1);
    expect(shardCount(names(200, 'HOOK'))).toBe(1);
    expect(shardCount([...names(200, 'HOOK'), ...names(200, 'HOOK')])).toBe(1);
    expect(shardCount(names(201, 'HOOK'))).toBe(2);
    expect(secretShardsOf('subscriber-secrets', names(1000, 'HOOK')).count).toBe(5);
  });

  it('puts a name in the same shard in either family, and a delivery function told the count finds it as the stack laid it out', () => {
    const hooks = names(1000, 'KITCHEN_SLACK_URL');
    const stack = secretShardsOf('subscriber-secrets', hooks);
    const told = secretShards('subscriber-secrets', 5);
    const tokens = secretShardsOf('organization-tokens', hooks);
    for (const name of hooks) {
      expect(told.secretOf(name)).toBe(stack.secretOf(name));
      expect(tokens.shardOf(name)).toBe(stack.shardOf(name));
      expect(stack.secretOf(name)).toBe(shardSecret('subscriber-secrets', stack.shardOf(name)));
    }
    // Every shard is used, and none holds much more than its share: each fits Secrets Manager's 64 KB at
    // 300 bytes a value.
    const sizes = [0, 1, 2, 3, 4].map(
      (shard) => hooks.filter((name) => stack.shardOf(name) === shard).length,
    );
    for (const size of sizes) {
      expect(size).toBeGreaterThan(150);
      expect(size * 300).toBeLessThan(SECRET_VALUE_MAX_BYTES);
    }
  });

  it('moves only the new shard’s share of the names when one more shard is needed', () => {
    const hooks = names(1000, 'HOOK_SECRET');
    const moved = hooks.filter(
      (name) =>
        secretShards('subscriber-secrets', 5).shardOf(name) !==
        secretShards('subscriber-secrets', 6).shardOf(name),
    );
    expect(moved.length).toBeGreaterThan(100);
    expect(moved.length).toBeLessThan(250);
    for (const name of moved) expect(secretShards('subscriber-secrets', 6).shardOf(name)).toBe(5);
  });

  it('takes the tokens for one family and the Slack and webhook subscribers’ secrets, bot tokens included, for the other', () => {
    const written = exampleConfig();
    written.subscribers = [
      ...(written.subscribers ?? []),
      {
        id: 'rotating',
        type: 'webhook',
        url: 'https://hooks.example.test/rotating',
        secret: [{ env: 'HOOK_SECRET' }, { env: 'HOOK_SECRET_NEW' }],
      },
      { id: 'board', type: 'slack', botToken: { env: 'BOARD_BOT_TOKEN' }, channel: 'C0000001' },
    ];
    const config = parseConfig(written);
    expect(familyNamesOf(config, 'organization-tokens')).toEqual(['NORTH_TOKEN']);
    // Distinct, in config order; the e-mail subscriber and smtp.url have none on AWS.
    expect(familyNamesOf(config, 'subscriber-secrets')).toEqual([
      'HOOK_SECRET',
      'SLACK_URL',
      'HOOK_SECRET_NEW',
      'BOARD_BOT_TOKEN',
    ]);
  });

  it('gives the one command that puts every family, with the prefix', () => {
    expect(putSecretsCommand('Prod/')).toMatch(
      /^meal-notifier put-secrets --config .* --secrets-prefix Prod\/ --file /,
    );
  });
});
