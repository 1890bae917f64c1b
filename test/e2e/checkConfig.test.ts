// `meal-notifier check-config`, run as a real process: each kind of mistake is named with its JSON path
// (exit 2) without printing a secret, all of them in one run; --ping explains a rejected token, a
// forbidden organization and an SMTP server that does not answer in plain words (exit 1). A good config
// says so (exit 0); a state file there that the runner could not open fails as the runner would (exit 2).
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../shared/store/sqlite/sqliteSchema.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { filterAtSnsLimit } from '../support/configFixtures.js';
import { runCli } from '../support/runCli.js';
import { type SmtpReceiver, startSmtpReceiver } from '../support/smtpReceiver.js';
import { makeWebhookSecret } from '../support/webhookReceiver.js';

let sim: RunningSimulator;
let smtp: SmtpReceiver;
let dir: string;
const northToken = 'sim_north_token_for_check_config';
const southToken = 'sim_south_token_for_check_config';
const hookSecret = makeWebhookSecret();
/** What a webhook or Slack URL must be, as every command words it. */
const URL_RULE = 'an https:// URL, or http:// on loopback (127.0.0.0/8, ::1, localhost)';

beforeAll(async () => {
  sim = await startSimulator({
    seed: 17,
    scenario: false,
    initialOrders: 5,
    organizations: [{ name: 'North School' }, { name: 'South Academy' }],
    tokens: [
      { token: northToken, organizations: ['North School'] },
      { token: southToken, organizations: ['South Academy'] },
    ],
  });
  smtp = await startSmtpReceiver({ credentials: { user: 'alerts', pass: 's3cret-pass' } });
  dir = await mkdtemp(join(tmpdir(), 'check-config-'));
});

afterAll(async () => {
  await Promise.all([sim.close(), smtp.close()]);
  await rm(dir, { recursive: true, force: true });
});

function goodConfig(): Record<string, unknown> {
  const [north, south] = sim.organizations;
  return {
    api: { baseUrl: sim.baseUrl },
    organizations: [
      { id: north?.id, name: 'North School', token: { env: 'NORTH_TOKEN' }, timeZone: 'Europe/Lisbon' },
      { id: south?.id, name: 'South Academy', token: { env: 'SOUTH_TOKEN' }, timeZone: 'Europe/Lisbon' },
    ],
    subscribers: [
      {
        id: 'automation',
        type: 'webhook',
        url: 'https://hooks.example.org/orders',
        secret: { env: 'HOOK_SECRET' },
      },
      { id: 'kitchen', type: 'slack', webhookUrl: { env: 'SLACK_URL' } },
      { id: 'office', type: 'email', to: ['office@example.org'] },
    ],
    smtp: { url: { env: 'SMTP_URL' }, from: 'Alerts <alerts@example.org>' },
  };
}

let files = 0;
async function write(content: string | Record<string, unknown>): Promise<string> {
  files += 1;
  const path = join(dir, `config-${files}.json`);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

function goodEnv(): Record<string, string> {
  return {
    NORTH_TOKEN: northToken,
    SOUTH_TOKEN: southToken,
    HOOK_SECRET: hookSecret,
    SLACK_URL: 'https://hooks.slack.example/services/T000/B000/XXXX',
    SMTP_URL: smtp.url,
  };
}

describe('meal-notifier check-config', () => {
  it('says a good config is OK, and --ping confirms each organization', async () => {
    const config = await write(goodConfig());
    const result = await runCli(['check-config', config], goodEnv());
    expect(result).toMatchObject({
      code: 0,
      stdout: 'config OK: 2 organizations, 3 subscribers\n',
      stderr: '',
    });
    expect(sim.requestLog.size).toBe(0);

    const pinged = await runCli(['check-config', config, '--ping'], goodEnv());
    expect(pinged.code).toBe(0);
    expect(pinged.stdout).toMatch(
      /^North School: OK, the token reads this organization \(\d+ establishments\)$/m,
    );
    expect(pinged.stdout).toMatch(/^South Academy: OK/m);
    expect(pinged.stdout).toContain(
      `SMTP server smtp://127.0.0.1:${smtp.port}: OK, it answers and accepts the login\n`,
    );
    expect(pinged.stdout).toMatch(/config OK: 2 organizations, 3 subscribers\n$/);
    expect(smtp.received).toHaveLength(0);
  });

  it("says what an e-mail filter at SNS's full 150 combinations and a request for contact details come to on AWS, as synth does, and passes", async () => {
    const config = goodConfig();
    config.subscribers = [
      ...(config.subscribers as Record<string, unknown>[]).filter(({ type }) => type !== 'email'),
      {
        id: 'office',
        type: 'email',
        to: ['office@example.org', 'cook@example.org'],
        includeContactDetails: true,
        filter: filterAtSnsLimit(),
      },
    ];
    const result = await runCli(['check-config', await write(config)], goodEnv());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.split('\n').filter(Boolean)).toEqual([
      'warning: $.subscribers[2]: on AWS, e-mail subscriber "office" asks for contact details, which SNS e-mail never carries: one message serves every recipient',
      'warning: $.subscribers[2]: on AWS, e-mail subscriber "office" takes no re-sent e-mail: its filter has 150 value combinations, all SNS allows, and a branch for re-sent e-mail would make 151; what SNS cannot deliver to it is forwarded by hand (docs/aws.md, "Operate it")',
    ]);
    expect(result.stdout).toBe('config OK: 2 organizations, 3 subscribers\n');
  });

  it.each([
    [
      'invalid JSON',
      () => '{ "api": { "baseUrl": "x" }, }',
      /config-\d+\.json: invalid JSON at line 1, column \d+/,
    ],
    [
      'an unknown key',
      () => ({ ...goodConfig(), state: { pth: 'x.db' } }),
      /\$\.state: unknown key "pth" \(did you mean "path"\?\)/,
    ],
    [
      'a bad value',
      () => ({ ...goodConfig(), api: { baseUrl: 'https://meals.example.org/api/v1' } }),
      /\$\.api\.baseUrl: must end in \/api\/v1\/admin/,
    ],
  ])('names %s with its JSON path and exits 2', async (_kind, content, message) => {
    const config = await write(content());
    const result = await runCli(['check-config', config], goodEnv());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe('');
  });

  it('names a duplicate organization id', async () => {
    const base = goodConfig();
    const [north] = base.organizations as Array<Record<string, unknown>>;
    const config = await write({
      ...base,
      organizations: [north, { ...north, name: 'North School Annex' }],
    });
    const result = await runCli(['check-config', config], goodEnv());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/\$\.organizations\[1\]\.id: duplicate organization id "/);
  });

  it('lists every missing variable and unusable subscriber setting at once, never printing a value', async () => {
    const config = await write(goodConfig());
    const badSecret = 'whsec_tooShort';
    const { SOUTH_TOKEN: _unset, ...rest } = goodEnv();
    const env = { ...rest, NORTH_TOKEN: '', HOOK_SECRET: badSecret, SLACK_URL: 'not a url at all' };
    const result = await runCli(['check-config', config], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('4 problems');
    expect(result.stderr).toContain(
      '$.organizations[0].token: environment variable NORTH_TOKEN is not set or is empty',
    );
    expect(result.stderr).toContain(
      '$.organizations[1].token: environment variable SOUTH_TOKEN is not set or is empty',
    );
    expect(result.stderr).toMatch(
      /\$\.subscribers\[0\]\.secret: webhook subscriber "automation": signing secret .*expected "whsec_" followed by the base64 of 24 to 64 random bytes/,
    );
    expect(result.stderr).toContain(
      `$.subscribers[1].webhookUrl: Slack subscriber "kitchen": SLACK_URL does not hold a Slack incoming-webhook URL: ${URL_RULE}`,
    );
    expect(result.stderr).not.toContain(badSecret);
    expect(result.stderr).not.toContain('not a url at all');
  });

  it('refuses a Slack URL in plain http:// beyond loopback, with the line poll refuses it with, never quoting it', async () => {
    const config = await write(goodConfig());
    const plain = 'http://hooks.slack.example/services/T000/B000/XXXX';
    const env = { ...goodEnv(), SLACK_URL: plain };
    const line = `$.subscribers[1].webhookUrl: Slack subscriber "kitchen": SLACK_URL does not hold a Slack incoming-webhook URL: ${URL_RULE}`;
    const checked = await runCli(['check-config', config], env);
    expect(checked.code).toBe(2);
    expect(checked.stderr).toBe(`meal-notifier: ${config}: 1 problem\n  ${line}\n`);
    expect(checked.stdout).toBe('');

    // poll refuses it at start-up, before asking the API anything.
    const requests = sim.requestLog.size;
    const polled = await runCli(['poll', '--config', config, '--once'], env);
    expect(polled.code).toBe(2);
    expect(polled.stderr).toContain(line);
    expect(sim.requestLog.size).toBe(requests);
    expect(`${checked.stderr}${polled.stderr}`).not.toContain('hooks.slack.example');
  });

  it('refuses a webhook URL in plain http:// beyond loopback by the same rule', async () => {
    const base = goodConfig();
    const [hook, ...others] = base.subscribers as Array<Record<string, unknown>>;
    const config = await write({
      ...base,
      subscribers: [{ ...hook, url: 'http://hooks.example.org/orders' }, ...others],
    });
    const result = await runCli(['check-config', config], goodEnv());
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `meal-notifier: ${config}: 1 problem\n  $.subscribers[0].url: must be ${URL_RULE}\n`,
    );
  });

  it('accepts plain http:// to loopback for Slack and webhooks: 127.0.0.0/8, ::1 and localhost', async () => {
    for (const [hookUrl, slackUrl] of [
      ['http://127.0.0.1:8080/orders', 'http://localhost:8081/services/T000/B000/XXXX'],
      ['http://[::1]:8080/orders', 'http://127.45.6.7/services/T000/B000/XXXX'],
      ['http://localhost/orders', 'http://[::1]:8081/services/T000/B000/XXXX'],
    ] as const) {
      const base = goodConfig();
      const [hook, ...others] = base.subscribers as Array<Record<string, unknown>>;
      const config = await write({ ...base, subscribers: [{ ...hook, url: hookUrl }, ...others] });
      const result = await runCli(['check-config', config], { ...goodEnv(), SLACK_URL: slackUrl });
      expect(result, `${hookUrl} ${slackUrl}`).toMatchObject({
        code: 0,
        stdout: 'config OK: 2 organizations, 3 subscribers\n',
        stderr: '',
      });
    }
  });

  it('explains a rejected token (401) after --ping and exits 1', async () => {
    const config = await write(goodConfig());
    const result = await runCli(['check-config', config, '--ping'], {
      ...goodEnv(),
      NORTH_TOKEN: 'sim_wrong',
    });
    expect(result.code).toBe(1);
    // The failure line every command prints for it (test/e2e/oneVoice.test.ts), a line of its own.
    expect(result.stdout).toMatch(
      /^North School: token rejected: put a new token; the API answered 401 \(unauthorized\): the value of NORTH_TOKEN is wrong, expired or revoked$/m,
    );
    expect(result.stdout).toMatch(/^South Academy: OK/m);
    expect(result.stderr).toContain('the config is valid, but 1 of 2 organizations failed the ping');
    expect(`${result.stdout}${result.stderr}`).not.toContain('sim_wrong');
  });

  it('explains a token that may not read the organization (403) after --ping and exits 1', async () => {
    const config = await write(goodConfig());
    // North's token is real, but it does not grant South Academy.
    const result = await runCli(['check-config', config, '--ping'], {
      ...goodEnv(),
      SOUTH_TOKEN: northToken,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^South Academy: token rejected: put a new token; the API answered 403 \(forbidden\): the token may not read organization [0-9a-f-]+: check \$\.organizations\[1\]\.id/m,
    );
  });

  it('explains an SMTP server that does not answer after --ping and exits 1', async () => {
    const config = await write(goodConfig());
    // A port nothing listens on any more: the address is wrong, as a typo in the host or port would make it.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const result = await runCli(['check-config', config, '--ping'], {
      ...goodEnv(),
      SMTP_URL: `smtp://alerts:s3cret-pass@127.0.0.1:${port}`,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^North School: OK/m);
    expect(result.stdout).toContain(
      `SMTP server smtp://127.0.0.1:${port}: FAILED, cannot reach smtp://127.0.0.1:${port} (connection refused: nothing listens at that address and port): check the host and port in SMTP_URL\n`,
    );
    expect(result.stderr).toContain('the config is valid, but the SMTP server failed the ping');
    expect(`${result.stdout}${result.stderr}`).not.toContain('s3cret-pass');
  });

  it("names a subscriber's unset secret next to its refused URL, and an unwritable state path, in one pass", async () => {
    await writeFile(join(dir, 'not-a-directory'), '');
    const base = goodConfig();
    const [, ...others] = base.subscribers as unknown[];
    const config = await write({
      ...base,
      subscribers: [
        {
          id: 'automation',
          type: 'webhook',
          url: 'https://integrator:hunter22@hooks.example.org/orders',
          secret: { env: 'HOOK_SECRET' },
        },
        ...others,
      ],
      state: { path: 'not-a-directory/state.db' },
    });
    const { HOOK_SECRET: _unset, ...env } = goodEnv();
    const result = await runCli(['check-config', config], env);
    expect(result.code).toBe(2);
    const blocker = join(dir, 'not-a-directory');
    expect(result.stderr).toBe(
      [
        `meal-notifier: ${config}: 3 problems`,
        '  $.subscribers[0].url: webhook subscriber "automation": the URL must not carry a user name or password',
        '  $.subscribers[0].secret: environment variable HOOK_SECRET is not set or is empty',
        `  $.state.path: ${blocker} is a file, not a directory, so ${join(blocker, 'state.db')} cannot be created; move that file, or point state.path elsewhere`,
        '',
      ].join('\n'),
    );
    expect(result.stderr).not.toContain('hunter22');
  });

  it('names unset secrets even when the schema refuses the config, next to what it refuses', async () => {
    const base = goodConfig();
    const [, ...others] = base.subscribers as unknown[];
    const config = await write({
      ...base,
      subscribers: [
        {
          id: 'automation',
          type: 'webhook',
          url: 'hooks.example.org/orders',
          secret: { env: 'HOOK_SECRET' },
        },
        ...others,
      ],
    });
    const { HOOK_SECRET: _hook, SLACK_URL: _slack, ...env } = goodEnv();
    const result = await runCli(['check-config', config], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      [
        `meal-notifier: ${config}: 3 problems`,
        `  $.subscribers[0].url: must be ${URL_RULE}`,
        '  $.subscribers[0].secret: environment variable HOOK_SECRET is not set or is empty',
        '  $.subscribers[1].webhookUrl: environment variable SLACK_URL is not set or is empty',
        '',
      ].join('\n'),
    );
  });

  it("refuses a state file the runner could not open with the runner's own line, exit 2, leaving it as it was", async () => {
    const env = goodEnv();
    const notADatabase = join(dir, 'notes.db');
    const text = 'These are notes, not the state file. '.repeat(4);
    await writeFile(notADatabase, text);
    const notes = await runCli(
      ['check-config', await write({ ...goodConfig(), state: { path: 'notes.db' } })],
      env,
    );
    expect(notes.code).toBe(2);
    expect(notes.stderr).toBe(
      `meal-notifier: cannot open state file ${notADatabase}: it is not a SQLite database (SQLITE_NOTADB); ` +
        "set state.path to the notifier's state file or to a new one, or move this file away\n",
    );
    expect(notes.stdout).toBe('');
    expect(await readFile(notADatabase, 'utf8')).toBe(text);

    const newer = join(dir, 'newer.db');
    const file = new Database(newer);
    file.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    file.close();
    const refused = await runCli(
      ['check-config', await write({ ...goodConfig(), state: { path: 'newer.db' } })],
      env,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `meal-notifier: cannot open state file ${newer}: a newer meal-notifier wrote it ` +
        `(schema version ${SCHEMA_VERSION + 1}; this one reads up to ${SCHEMA_VERSION}); ` +
        'run that version or a later one, or point state.path at another file\n',
    );
    const after = new Database(newer, { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    after.close();
    expect((await readdir(dir)).filter((name) => name.startsWith('newer.db'))).toEqual(['newer.db']);
  });
});
