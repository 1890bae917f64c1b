// The Slack app subscriber's config: botToken and channel beside the incoming webhook, each refused
// setting in one line at its own path, and an apiUrl that takes the token only over https (or to this machine).
import { describe, expect, it } from 'vitest';
import { credentialUrlProblem, isSlackAppSubscriber } from '../../../shared/config/configSchema.js';
import { ConfigError, type ConfigProblem } from '../../../shared/config/errors.js';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import { secretReferences } from '../../../shared/config/secretReferences.js';
import { minimalConfig } from '../../support/configFixtures.js';

function withSubscriber(subscriber: Record<string, unknown>): unknown {
  return { ...minimalConfig(), subscribers: [{ id: 'kitchen', type: 'slack', ...subscriber }] };
}

function problemsOf(json: unknown): ConfigProblem[] {
  try {
    parseConfig(json);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  return [];
}

const app = { botToken: { env: 'KITCHEN_SLACK_BOT_TOKEN' }, channel: 'C0123ABCD' };

describe('a Slack app subscriber', () => {
  it('takes botToken and channel, defaults nothing else, and names its token among the secrets', () => {
    const config = parseConfig(withSubscriber(app));
    const [subscriber] = config.subscribers;
    expect(subscriber && isSlackAppSubscriber(subscriber)).toBe(true);
    expect(secretReferences(config).map(({ path }) => path)).toContain('$.subscribers[0].botToken');
  });

  it('refuses webhookUrl and botToken together, in one line', () => {
    expect(problemsOf(withSubscriber({ ...app, webhookUrl: { env: 'SLACK_URL' } }))).toEqual([
      {
        path: '$.subscribers[0].botToken',
        message:
          "webhookUrl and botToken exclude each other: keep webhookUrl for one message per event, or botToken and channel for the kitchen's board",
      },
    ]);
  });

  it('needs one of them, and a channel id with botToken', () => {
    expect(problemsOf(withSubscriber({})).map(({ path }) => path)).toEqual(['$.subscribers[0].webhookUrl']);
    expect(problemsOf(withSubscriber({ botToken: app.botToken }))).toEqual([
      {
        path: '$.subscribers[0].channel',
        message: 'required with botToken: the id of the channel the board goes to, e.g. "C0123ABCD"',
      },
    ]);
    expect(problemsOf(withSubscriber({ ...app, channel: '#kitchen' }))[0]?.message).toContain(
      'is not a Slack channel id',
    );
  });

  it('sends the token only over https, or http to this machine', () => {
    expect(problemsOf(withSubscriber({ ...app, apiUrl: 'http://127.0.0.1:4010/api' }))).toEqual([]);
    expect(problemsOf(withSubscriber({ ...app, apiUrl: 'https://slack.com/api/' }))).toEqual([]);
    expect(credentialUrlProblem('http://[::1]:80/api')).toBeUndefined();
    expect(credentialUrlProblem('http://localhost/api')).toBeUndefined();
    const [problem] = problemsOf(withSubscriber({ ...app, apiUrl: 'http://slack.example.test/api' }));
    expect(problem?.path).toBe('$.subscribers[0].apiUrl');
    expect(problem?.message).toMatch(/^must be https:\/\//);
    expect(credentialUrlProblem('http://127.0.0.1.example.test/api')).toBeDefined();
  });

  it('keeps channel and apiUrl to the Slack app', () => {
    const [problem] = problemsOf(withSubscriber({ webhookUrl: { env: 'SLACK_URL' }, channel: 'C0123ABCD' }));
    expect(problem?.path).toBe('$.subscribers[0].channel');
  });
});
