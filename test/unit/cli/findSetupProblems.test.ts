import { describe, expect, it } from 'vitest';
import { findSetupProblems } from '../../../cli/checkConfig/findSetupProblems.js';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import { exampleConfig } from '../../support/configFixtures.js';
import { makeWebhookSecret } from '../../support/webhookReceiver.js';

const goodEnv = {
  NORTH_TOKEN: 'token',
  HOOK_SECRET: makeWebhookSecret(),
  SLACK_URL: 'https://hooks.slack.example/services/T0/B0/X',
  SMTP_URL: 'smtp://user:pass@mail.example.org:587',
};

describe('findSetupProblems', () => {
  it('finds nothing wrong with a complete setup', async () => {
    expect(await findSetupProblems(parseConfig(exampleConfig()), goodEnv)).toEqual([]);
  });

  it('names every unset or empty variable at its JSON path', async () => {
    const { NORTH_TOKEN: _unset, ...env } = goodEnv;
    expect(await findSetupProblems(parseConfig(exampleConfig()), { ...env, SMTP_URL: '' })).toEqual([
      {
        path: '$.organizations[0].token',
        message: 'environment variable NORTH_TOKEN is not set or is empty',
      },
      { path: '$.smtp.url', message: 'environment variable SMTP_URL is not set or is empty' },
    ]);
  });

  it('refuses settings the senders would refuse, without quoting the secrets', async () => {
    const env = {
      ...goodEnv,
      HOOK_SECRET: 'whsec_c2hvcnQ=',
      SLACK_URL: 'xoxb-not-a-url',
      SMTP_URL: 'http://mail.example.org',
    };
    const problems = await findSetupProblems(parseConfig(exampleConfig()), env);
    expect(problems.map((problem) => problem.path)).toEqual([
      '$.subscribers[0].secret',
      '$.subscribers[1].webhookUrl',
      '$.smtp.url',
    ]);
    expect(problems[0]?.message).toMatch(
      /^webhook subscriber "automation": signing secret .*expected "whsec_"/,
    );
    expect(problems[2]?.message).toBe(
      'e-mail subscriber "office": smtp.url must use smtp or smtps, not "http"',
    );
    for (const problem of problems) {
      expect(problem.message).not.toContain('c2hvcnQ');
      expect(problem.message).not.toContain('xoxb');
    }
  });

  it('points at the one secret of a rotation list that is malformed', async () => {
    const config = exampleConfig();
    const [hook] = config.subscribers ?? [];
    if (hook?.type !== 'webhook') throw new Error('the example starts with a webhook');
    hook.secret = [{ env: 'HOOK_SECRET' }, { env: 'OLD_SECRET' }];
    const problems = await findSetupProblems(parseConfig(config), { ...goodEnv, OLD_SECRET: 'not-whsec' });
    expect(problems.map((problem) => problem.path)).toEqual(['$.subscribers[0].secret[1]']);
  });

  it("names a subscriber's unset secret and its unusable URL in one pass", async () => {
    const config = exampleConfig();
    const [hook] = config.subscribers ?? [];
    if (hook?.type !== 'webhook') throw new Error('the example starts with a webhook');
    hook.url = 'https://integrator:hunter22@hooks.example.test/orders';
    const { HOOK_SECRET: _unset, ...env } = goodEnv;
    const problems = await findSetupProblems(parseConfig(config), env);
    expect(problems).toEqual([
      { path: '$.subscribers[0].secret', message: 'environment variable HOOK_SECRET is not set or is empty' },
      {
        path: '$.subscribers[0].url',
        message: 'webhook subscriber "automation": the URL must not carry a user name or password',
      },
    ]);
  });
});
