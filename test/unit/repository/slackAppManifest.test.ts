// The Slack app manifest users paste (docs/slack-app-manifest.json) asks for the bot scopes the Slack app
// subscriber's Web API calls need, by Slack's method reference, and for nothing more; its bot token does
// not expire; and the delivery docs name each scope it asks for, with the method it is for.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The methods the notifier calls with a bot token and the scopes Slack's method reference lists for each
 * (any one of them, for conversations.info: public or private channel; DMs are not a board's channel).
 */
const METHOD_SCOPES: Record<string, string[]> = {
  'chat.postMessage': ['chat:write'],
  'chat.update': ['chat:write'],
  'conversations.info': ['channels:read', 'groups:read'],
  'auth.test': [],
};

interface Manifest {
  display_information?: { name?: unknown };
  features?: { bot_user?: { display_name?: unknown } };
  oauth_config?: { scopes?: { bot?: unknown; user?: unknown } };
  settings?: { token_rotation_enabled?: unknown };
}

const manifest = JSON.parse(readFileSync(`${ROOT}docs/slack-app-manifest.json`, 'utf8')) as Manifest;

describe('the Slack app manifest', () => {
  it('asks for exactly the bot scopes the Web API calls need, and no user scopes', () => {
    const needed = [...new Set(Object.values(METHOD_SCOPES).flat())].sort();
    expect([...((manifest.oauth_config?.scopes?.bot as string[]) ?? [])].sort()).toEqual(needed);
    expect(manifest.oauth_config?.scopes?.user).toBeUndefined();
  });

  it('has a name and a bot user, and a token that does not expire every 12 hours', () => {
    expect(typeof manifest.display_information?.name).toBe('string');
    expect(typeof manifest.features?.bot_user?.display_name).toBe('string');
    expect(manifest.settings?.token_rotation_enabled).toBe(false);
  });

  it('is named, with each of its scopes, by the delivery docs', () => {
    const docs = readFileSync(`${ROOT}docs/delivery.md`, 'utf8');
    expect(docs).toContain('[slack-app-manifest.json](slack-app-manifest.json)');
    for (const scope of (manifest.oauth_config?.scopes?.bot as string[]) ?? [])
      expect(docs).toContain(`\`${scope}\``);
  });
});
