// `meal-notifier send-test`, run as a real process against real loopback receivers: a webhook receiver
// that verifies the signature with the official `standardwebhooks` package, a Slack-like endpoint and an
// SMTP server. The sample is marked as a test in each channel, is recorded nowhere, and a failed delivery
// or an unknown subscriber ends the process with one line and a non-zero exit code.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderEventSchema } from '../../shared/events/orderEvent.js';
import { SqliteStateStore } from '../../shared/store/sqlite/sqliteStateStore.js';
import { NORTH_SCHOOL_ID, writeNorthSchoolConfig } from '../support/configFixtures.js';
import { closedPort } from '../support/loopbackServer.js';
import { runCli } from '../support/runCli.js';
import { SLACK_ANSWERS, type SlackReceiver, startSlackReceiver } from '../support/slackReceiver.js';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtpReceiver.js';
import {
  makeWebhookSecret,
  startWebhookReceiver,
  type WebhookReceiver,
  webhookHeaders,
} from '../support/webhookReceiver.js';

const CANTEEN = '16496821-5603-43c0-a1c0-b40d45c8b087';
const secret = makeWebhookSecret();
let hook: WebhookReceiver;
let slack: SlackReceiver;
let smtp: SmtpReceiver;
let dir: string;
let config: string;
let statePath: string;
let env: Record<string, string>;

beforeAll(async () => {
  [hook, slack, smtp] = await Promise.all([
    startWebhookReceiver({ secrets: [secret] }),
    startSlackReceiver(),
    startSmtpReceiver(),
  ]);
  dir = await mkdtemp(join(tmpdir(), 'send-test-'));
  statePath = join(dir, 'state.db');
  // Never asked: send-test needs no API and no token.
  config = await writeNorthSchoolConfig(dir, 'http://127.0.0.1:9/api/v1/admin', {
    subscribers: [
      { id: 'automation', type: 'webhook', url: hook.url, secret: { env: 'HOOK_SECRET' } },
      {
        id: 'kitchen',
        type: 'slack',
        webhookUrl: { env: 'SLACK_URL' },
        filter: { establishments: [CANTEEN] },
      },
      { id: 'office', type: 'email', to: ['office@example.org'], filter: { types: ['order.canceled'] } },
    ],
    smtp: true,
    state: 'state.db',
  });
  // A state file already there, as on a machine where the runner runs: the sample must not enter it.
  new SqliteStateStore({ path: statePath, routeEvent: () => ['automation', 'kitchen', 'office'] }).close();
  env = { HOOK_SECRET: secret, SLACK_URL: slack.webhookUrl('kitchen'), SMTP_URL: smtp.url };
});

afterAll(async () => {
  await Promise.all([hook.close(), slack.close(), smtp.close()]);
  await rm(dir, { recursive: true, force: true });
});

describe('meal-notifier send-test', () => {
  it('delivers a signed sample marked as a test to a webhook, and records it nowhere', async () => {
    const result = await runCli(['send-test', '--config', config, '--subscriber', 'automation'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^automation ← test order\.created TEST-[0-9A-F]{4}: delivered \(204\) in \d+\.\d s, event id test-[0-9a-f-]{36}\n$/,
    );
    const [request] = hook.received;
    expect(hook.received).toHaveLength(1);
    // As an integrator verifies it: the official library, the raw body, the shared secret.
    const verified = new Webhook(secret).verify(request?.body ?? '', webhookHeaders(request?.headers ?? {}));
    const event = OrderEventSchema.parse(verified);
    expect(event.id).toMatch(/^test-/);
    expect(request?.headers['webhook-id']).toBe(event.id);
    expect(event.data.test).toBe(true);
    expect(event.data.order.reference).toMatch(/^TEST-/);
    expect(event.data.organization).toEqual({
      id: NORTH_SCHOOL_ID,
      name: 'North School',
      time_zone: 'Europe/Lisbon',
    });
    // Delivered as poll would: contact details left out for a subscriber that did not opt in.
    expect(event.data.order.customer.parent).toEqual({
      uuid: '00000000-0000-4000-8000-000000000002',
      name: 'Sample Parent',
    });
    expect(result.stdout).toContain(event.id);

    const store = new SqliteStateStore({ path: statePath, routeEvent: () => [] });
    try {
      expect(await store.listEvents(NORTH_SCHOOL_ID)).toEqual([]);
      expect(await store.outbox.listDeliveries()).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('posts Slack blocks marked TEST, for an establishment its filter takes', async () => {
    const result = await runCli(
      ['send-test', '--config', config, '--subscriber', 'kitchen', '--type', 'order.canceled'],
      env,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^kitchen ← test order\.canceled TEST-[0-9A-F]{4}: delivered \(200\)/);
    const message = slack.received.at(-1)?.payload as {
      text: string;
      blocks: Array<Record<string, unknown>>;
    };
    expect(message.text).toMatch(/^🧪 TEST · ❌ Canceled TEST-[0-9A-F]{4} — Sample establishment/);
    expect(message.blocks[0]).toMatchObject({
      type: 'header',
      text: { text: expect.stringMatching(/^🧪 TEST · /) },
    });
    expect(JSON.stringify(message.blocks[1])).toContain('not a real order');
    // The sample's card, as the e-mail shows it too.
    expect(JSON.stringify(message.blocks)).toContain('"*Payment method*\\nCard"');
    expect(result.stderr).toBe('');
  });

  it('mails a sample marked TEST of a type the filter takes, when no --type is given', async () => {
    const result = await runCli(['send-test', '--config', config, '--subscriber', 'office'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^office ← test order\.canceled TEST-[0-9A-F]{4}: delivered \(250\)/);
    const mail = await smtp.nextMail();
    expect(mail.rcptTo).toEqual(['office@example.org']);
    expect(mail.headers.get('subject')).toMatch(/^\[TEST\] Order TEST-[0-9A-F]{4} canceled — /);
    expect(mail.headers.get('x-meal-order-event-id')).toMatch(/^test-/);
    expect(mail.text).toMatch(
      /^TEST: sent by meal-notifier send-test to try this address\. It is not a real order\./,
    );
    expect(mail.text).toMatch(/^ *Payment method: Card$/m);
  });

  it('sends a sample prep summary marked TEST, under a test- id, to Slack and by e-mail', async () => {
    const type = ['--type', 'establishment.prep_summary'];
    const posted = await runCli(['send-test', '--config', config, '--subscriber', 'kitchen', ...type], env);
    expect(posted.stderr).toBe('');
    expect(posted.code).toBe(0);
    expect(posted.stdout).toMatch(
      /^kitchen ← test establishment\.prep_summary Sample establishment \d{4}-\d{2}-\d{2}: delivered \(200\) in \d+\.\d s, event id test-[0-9a-f-]{36}\n$/,
    );
    const message = slack.received.at(-1)?.payload as { text: string; blocks: unknown[] };
    expect(message.text).toMatch(/^🧪 TEST · 🍽 Sample establishment — 3 orders for /);
    expect(JSON.stringify(message.blocks[1])).toContain('not a real summary');
    expect(JSON.stringify(message.blocks)).toContain('Sample meal');

    const mailed = await runCli(['send-test', '--config', config, '--subscriber', 'office', ...type], env);
    expect(mailed.code).toBe(0);
    // The office's filter takes cancellations only: the sample goes all the same, with a note.
    expect(mailed.stderr).toContain('does not take this establishment.prep_summary');
    const mail = await smtp.nextMail();
    expect(mail.headers.get('subject')).toMatch(
      /^\[TEST\] Prep summary: Sample establishment — 3 orders for /,
    );
    expect(mail.headers.get('x-meal-order-event-id')).toMatch(/^test-/);
    expect(mail.text).toMatch(
      /^TEST: sent by meal-notifier send-test to try this address\. It is not a real summary/,
    );
    expect(mail.html).toContain('not a real summary');
  });

  it('shows the notes and the allergy flag of an updated order in Slack and by e-mail, with the changes first', async () => {
    const type = ['--type', 'order.updated'];
    const posted = await runCli(['send-test', '--config', config, '--subscriber', 'kitchen', ...type], env);
    expect(posted.code).toBe(0);
    const message = slack.received.at(-1)?.payload as { text: string; blocks: unknown[] };
    expect(message.text).toMatch(/^🧪 TEST · ✏️ Changed TEST-[0-9A-F]{4} · items, 🚨 notes — /);
    const blocks = JSON.stringify(message.blocks);
    expect(blocks).toContain('*Changed*\\n• Orange juice: 1 → 2\\n🚨 Notes: none → Allergic to peanuts');
    expect(blocks).toContain(
      '*Notes*\\n🚨 *Order:* Allergic to peanuts: no nuts at all, please.\\n• *Sample meal:* Cut in small pieces',
    );
    expect(blocks.indexOf('*Notes*')).toBeLessThan(blocks.indexOf('*Items (2)*'));

    const mailed = await runCli(['send-test', '--config', config, '--subscriber', 'office', ...type], env);
    expect(mailed.code).toBe(0);
    const mail = await smtp.nextMail();
    expect(mail.headers.get('subject')).toMatch(
      /^\[TEST\] Order TEST-[0-9A-F]{4} changed: items, notes \[ALLERGY\/DIET\] — /,
    );
    expect(mail.text).toContain(
      '\nChanged:\n  Orange juice: 1 → 2\n  [ALLERGY/DIET] Notes: none → Allergic to peanuts',
    );
    expect(mail.text).toContain(
      '\nNotes:\n  [ALLERGY/DIET] Order: Allergic to peanuts: no nuts at all, please.\n  Sample meal: Cut in small pieces\n\nItems:\n',
    );
    expect(mail.html).toContain('<tr style="background:#fdecea">');
  });

  it("lists the sample prep summary's notes in Slack and by e-mail, flagged with the organization's own words", async () => {
    const own = await writeNorthSchoolConfig(
      dir,
      'http://127.0.0.1:9/api/v1/admin',
      {
        organization: { highlightWords: ['pieces'] },
        subscribers: [
          { id: 'kitchen', type: 'slack', webhookUrl: { env: 'SLACK_URL' } },
          { id: 'office', type: 'email', to: ['office@example.org'] },
        ],
        smtp: true,
      },
      'own-words.json',
    );
    const type = ['--type', 'establishment.prep_summary'];
    const posted = await runCli(['send-test', '--config', own, '--subscriber', 'kitchen', ...type], env);
    expect(posted.code).toBe(0);
    const summary = slack.received.at(-1)?.payload as { blocks: unknown[] } | undefined;
    const blocks = JSON.stringify(summary?.blocks);
    expect(blocks).toMatch(
      /\*Notes\*\\n🚨 \*TEST-[0-9A-F]{4}-2:\* Cut in small pieces\\n• \*TEST-[0-9A-F]{4}-1 · 5B · Sample meal:\* Allergic to peanuts/,
    );

    const mailed = await runCli(['send-test', '--config', own, '--subscriber', 'office', ...type], env);
    expect(mailed.code).toBe(0);
    const mail = await smtp.nextMail();
    expect(mail.text).toMatch(
      /\nNotes:\n {2}\[ALLERGY\/DIET\] TEST-[0-9A-F]{4}-2: Cut in small pieces\n {2}TEST-[0-9A-F]{4}-1 · 5B · Sample meal: Allergic to peanuts/,
    );
  });

  it("exits 1 with the receiver's answer when the delivery fails", async () => {
    slack.script(SLACK_ANSWERS.invalidBlocks);
    const result = await runCli(['send-test', '--config', config, '--subscriber', 'kitchen'], env);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^meal-notifier: kitchen ← test order\.created TEST-[0-9A-F]{4}: not delivered, .*invalid_blocks.*; poll would not retry a real event: it would become a dead letter\n$/,
    );
    expect(result.stderr).not.toContain(env.SLACK_URL);
  });

  it('names the nearest subscriber id in one line for an unknown one, and exits 2', async () => {
    const result = await runCli(['send-test', '--config', config, '--subscriber', 'kitchn'], env);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `meal-notifier: ${config} has no subscriber "kitchn" (did you mean "kitchen"?)\n`,
    });
  });

  it('explains a receiver nothing listens for in the words check-config --ping uses, and exits 1', async () => {
    const port = await closedPort();
    const unreachable = join(dir, 'unreachable.json');
    await writeFile(
      unreachable,
      (await readFile(config, 'utf8')).replace(hook.url, `http://127.0.0.1:${port}/hooks/orders`),
    );
    const result = await runCli(['send-test', '--config', unreachable, '--subscriber', 'automation'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `^meal-notifier: automation ← test order\\.created TEST-[0-9A-F]{4}: not delivered, cannot reach http://127\\.0\\.0\\.1:${port} \\(connection refused: nothing listens at that address and port\\)`,
      ),
    );
    expect(result.stderr).not.toContain('ECONNREFUSED');
  });
});
