// Delivery under faults as a user meets them: `meal-notifier poll` as a real process against the
// simulator, with real loopback receivers. A webhook that hangs does not hold back the Slack and e-mail
// subscribers; a Slack URL without a scheme is refused at start-up, not discovered by sending; and a
// signing-secret rotation with one of two secrets set delivers, signed with the one that is set.
import { mkdtemp, rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { timeoutFor } from '../support/loadedTimeouts.js';
import { runCli, startCli } from '../support/runCli.js';
import { type SlackReceiver, startSlackReceiver } from '../support/slackReceiver.js';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtpReceiver.js';
import { makeWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';

/** Three CLI processes one after another. */
const THREE_RUNS = timeoutFor({ cliRuns: 3 });
/** A `poll --once`, then a runner started, its cycles 2 s apart until both orders are delivered, and stopped. */
const RUNNER_DELIVERING = timeoutFor({ cliRuns: 3, realSeconds: 10 });

let sim: RunningSimulator;
let dir: string;
let slack: SlackReceiver;
let smtp: SmtpReceiver;
let receivers: WebhookReceiver[];
const secrets = [makeWebhookSecret(), makeWebhookSecret()];

beforeEach(async () => {
  sim = await startSimulator({ seed: 52, scenario: false, initialOrders: 20 });
  dir = await mkdtemp(join(tmpdir(), 'poll-delivery-faults-'));
  slack = await startSlackReceiver();
  smtp = await startSmtpReceiver();
  receivers = [];
});

afterEach(async () => {
  await Promise.all([
    ...receivers.map((receiver) => receiver.close()),
    slack.close(),
    smtp.close(),
    sim.close(),
  ]);
  await rm(dir, { recursive: true, force: true });
});

const writeConfig = (subscribers: unknown[]): Promise<string> =>
  writeNorthSchoolConfig(dir, sim, {
    // The fastest the config allows: each case waits for a cycle or two to see its orders.
    organization: { pollIntervalSeconds: 2 },
    subscribers,
    smtp: true,
    state: 'state.db',
  });

const env = (): Record<string, string> => ({
  NORTH_TOKEN: sim.token,
  HOOK_SECRET_NEW: secrets[0] ?? '',
  HOOK_SECRET_OLD: secrets[1] ?? '',
  SLACK_URL: slack.webhookUrl('kitchen'),
  SMTP_URL: smtp.url,
});

describe('meal-notifier poll, when a subscriber misbehaves', () => {
  it('delivers to Slack and e-mail while a webhook’s attempt hangs', {
    timeout: RUNNER_DELIVERING,
  }, async () => {
    const held: ServerResponse[] = [];
    let heldClosed = false;
    let holding = true;
    let attemptArrived = () => {};
    const firstAttempt = new Promise<void>((resolve) => {
      attemptArrived = resolve;
    });
    const stuck = await startWebhookReceiver({
      secrets,
      respond: (_request, res) => {
        attemptArrived();
        if (!holding) {
          res.writeHead(204).end();
          return;
        }
        // Never answered while the test runs: the runner's own timeout is all that could end it.
        held.push(res);
        res.on('close', () => {
          heldClosed = true;
        });
      },
    });
    receivers.push(stuck);
    const config = await writeConfig([
      { id: 'stuck', type: 'webhook', url: stuck.url, secret: { env: 'HOOK_SECRET_NEW' } },
      { id: 'kitchen', type: 'slack', webhookUrl: { env: 'SLACK_URL' } },
      { id: 'office', type: 'email', to: ['office@example.org'] },
    ]);
    expect((await runCli(['poll', '--config', config, '--once'], env())).code).toBe(0);
    const runner = startCli(['poll', '--config', config], env());
    try {
      const first = sim.world.addOrder({ pickupDate: sim.world.today() });
      await runner.waitForStderr(new RegExp(`delivered  created +${first.reference} +to kitchen  `));
      // Sent beside the Slack message, not before it: it may reach the receiver a moment later.
      await firstAttempt;
      expect(stuck.received).toHaveLength(1);

      const second = sim.world.addOrder({ pickupDate: sim.world.today() });
      await runner.waitForStderr(new RegExp(`delivered  created +${second.reference} +to kitchen  `));
      await runner.waitForStderr(new RegExp(`delivered  created +${second.reference} +to office  `));
      // The webhook's first attempt is still in flight: nobody waited for it.
      expect(heldClosed).toBe(false);
      expect(stuck.received).toHaveLength(1);
    } finally {
      // Answered now, and any attempt after them at once, so that stopping has nothing to wait for.
      holding = false;
      for (const res of held) res.writeHead(204).end();
      expect(await runner.stop('SIGTERM')).toBe(0);
    }
  });

  it('refuses at start-up a Slack URL without a scheme, naming where it is set, and sends nothing', async () => {
    const config = await writeConfig([{ id: 'kitchen', type: 'slack', webhookUrl: { env: 'SLACK_URL' } }]);
    const url = slack.webhookUrl('kitchen').replace(/^http:\/\//, '');
    const run = await runCli(['poll', '--config', config, '--once'], { ...env(), SLACK_URL: url });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '$.subscribers[0].webhookUrl: Slack subscriber "kitchen": SLACK_URL does not hold a Slack incoming-webhook URL',
    );
    expect(run.stderr).not.toContain(url);
    expect(slack.received).toHaveLength(0);
    const check = await runCli(['check-config', config], { ...env(), SLACK_URL: url });
    expect(check.code).toBe(2);
    expect(check.stderr).toContain('$.subscribers[0].webhookUrl');
  }, 30_000);

  it('delivers during a rotation with only one of two signing secrets set, signed with the one set', {
    timeout: THREE_RUNS,
  }, async () => {
    const automation = await startWebhookReceiver({ secrets });
    receivers.push(automation);
    const config = await writeConfig([
      {
        id: 'automation',
        type: 'webhook',
        url: automation.url,
        secret: [{ env: 'HOOK_SECRET_NEW' }, { env: 'HOOK_SECRET_OLD' }],
      },
    ]);
    const { HOOK_SECRET_OLD: _unset, ...rotating } = env();
    expect((await runCli(['poll', '--config', config, '--once'], rotating)).code).toBe(0);
    const order = sim.world.addOrder({ pickupDate: sim.world.today() });

    const run = await runCli(['poll', '--config', config, '--once'], rotating);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'warning: webhook subscriber "automation": signing secret HOOK_SECRET_OLD is not set; signing with the 1 that are',
    );
    expect(run.stderr).toMatch(new RegExp(`delivered  created +${order.reference} +to automation  `));
    expect(automation.received.map((request) => request.verifiedBy)).toEqual([[true, false]]);
    const check = await runCli(['check-config', config], rotating);
    expect(check.code).toBe(0);
    expect(check.stderr).toContain(
      'warning: $.subscribers[0].secret[1]: environment variable HOOK_SECRET_OLD is not set',
    );
  });
});
