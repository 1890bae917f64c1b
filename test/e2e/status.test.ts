// `meal-notifier status`, run as a real process after real polls: per organization its last successful
// poll, failures, snapshots and recent events; per subscriber its queued and dead deliveries and whether
// it was disabled. It reads the state file only, so it runs without any secret, and it does not create a
// state file that is not there yet. Its exit code is the health verdict: 1 with one line per problem (an
// organization never polled, dead letters, a disabled subscriber), 0 once all is well. A state file an
// older meal-notifier wrote migrates itself as status opens it; one a newer version wrote is refused.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../shared/store/sqlite/sqliteSchema.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { rewriteAsSchema1 } from '../support/olderStateFiles.js';
import { runCli } from '../support/runCli.js';
import { makeWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';

let sim: RunningSimulator;
let dir: string;
let receivers: WebhookReceiver[];
const secret = makeWebhookSecret();

beforeAll(async () => {
  sim = await startSimulator({ seed: 29, scenario: false, initialOrders: 20 });
  dir = await mkdtemp(join(tmpdir(), 'status-'));
  receivers = await Promise.all([
    // Busy for an hour: the delivery stays queued.
    startWebhookReceiver({
      secrets: [secret],
      respond: (_r, res) => void res.writeHead(429, { 'retry-after': '3600' }).end(),
    }),
    // Gone: the subscriber is disabled and its deliveries become dead letters.
    startWebhookReceiver({ secrets: [secret], respond: (_r, res) => void res.writeHead(410).end() }),
    startWebhookReceiver({ secrets: [secret] }),
  ]);
});

afterAll(async () => {
  await Promise.all([...receivers.map((receiver) => receiver.close()), sim.close()]);
  await rm(dir, { recursive: true, force: true });
});

async function writeConfig(name: string): Promise<string> {
  const [busy, gone, fine] = receivers;
  const hook = (id: string, receiver: WebhookReceiver | undefined) => ({
    id,
    type: 'webhook',
    url: receiver?.url,
    secret: { env: 'HOOK_SECRET' },
  });
  return writeNorthSchoolConfig(
    dir,
    sim,
    {
      subscribers: [hook('automation', busy), hook('legacy', gone), hook('office', fine)],
      state: `${name}.db`,
    },
    `${name}.json`,
  );
}

/** One table row with these cells (regular expressions), whatever the padding. */
function row(...cells: string[]): RegExp {
  return new RegExp(`│ ${cells.join('\\s*│ ')}\\s*│`);
}

describe('meal-notifier status', () => {
  it('shows polling health, recent events and each subscriber’s queued and dead deliveries', async () => {
    const config = await writeConfig('polled');
    const env = { NORTH_TOKEN: sim.token, HOOK_SECRET: secret };
    expect((await runCli(['poll', '--config', config, '--once'], env)).code).toBe(0);
    sim.world.addOrder({ pickupDate: sim.world.today() });
    sim.world.addOrder({ pickupDate: sim.world.today() });
    const second = await runCli(['poll', '--config', config, '--once'], env);
    expect(second.code).toBe(0);
    // The status line of the cycle counts what it just queued.
    expect(second.stderr).toMatch(
      /North School: .*, 2 events, 6 deliveries queued(, cadence \w+)?, next in \d+ s$/m,
    );

    const json = await runCli(['status', '--config', config, '--json'], {});
    // The gone receiver's subscriber is disabled and holds dead letters: unhealthy.
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report.health).toEqual({
      healthy: false,
      problems: [
        expect.stringMatching(/^subscriber legacy is disabled: .*410/),
        'subscriber legacy has 2 dead letters: see meal-notifier deliveries --failed',
      ],
    });
    expect(report.stateExists).toBe(true);
    expect(report.organizations).toEqual([
      expect.objectContaining({
        name: 'North School',
        lastSuccessAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        consecutiveFailures: 0,
        lastError: null,
        snapshots: expect.any(Number),
        eventsLastHour: 2,
        eventsLastDay: 2,
      }),
    ]);
    expect(report.organizations[0].snapshots).toBeGreaterThan(2);
    expect(report.subscribers).toEqual([
      expect.objectContaining({ id: 'automation', type: 'webhook', queued: 2, dead: 0, disabled: null }),
      expect.objectContaining({
        id: 'legacy',
        queued: 0,
        dead: 2,
        disabled: expect.objectContaining({ reason: expect.stringContaining('410') }),
      }),
      expect.objectContaining({ id: 'office', queued: 0, dead: 0, disabled: null }),
    ]);

    const table = await runCli(['status', '--config', config], {});
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(row('North School', '\\S+ \\S+Z \\(\\d+ s ago\\)', '0', '\\d+', '2', '2'));
    expect(table.stdout).toMatch(row('automation', 'webhook', '2', '0', 'enabled'));
    expect(table.stdout).toMatch(row('legacy', 'webhook', '0', '2', 'disabled since \\S+'));
    expect(table.stdout).toContain('\nsubscriber legacy is disabled:');
    expect(table.stdout).toContain(
      '\nsubscriber legacy has 2 dead letters: see meal-notifier deliveries --failed\n',
    );
  });

  it('refuses a state file a newer meal-notifier wrote: one line naming it and both versions, exit 2', async () => {
    const config = await writeConfig('newer');
    const statePath = join(dir, 'newer.db');
    const file = new Database(statePath);
    file.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    file.close();

    const result = await runCli(['status', '--config', config], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `meal-notifier: cannot open state file ${statePath}: a newer meal-notifier wrote it ` +
        `(schema version ${SCHEMA_VERSION + 1}; this one reads up to ${SCHEMA_VERSION}); ` +
        'run that version or a later one, or point state.path at another file\n',
    );
    expect(result.stdout).toBe('');
  });

  it('exits 1 for a config that never polled, without creating its state file, and 0 once a poll succeeded', async () => {
    const config = await writeConfig('fresh');
    const never = await runCli(['status', '--config', config], {});
    expect(never.code).toBe(1);
    expect(never.stdout).toContain('(not created yet: nothing polled)');
    expect(never.stdout).toMatch(row('North School', 'never', '0', '0', '0', '0'));
    expect(never.stdout).not.toContain('last error');
    expect(never.stdout).toMatch(
      /\nNorth School: never polled: no cycle has finished yet \(is meal-notifier poll running with this config\?\)\n$/,
    );
    expect(existsSync(join(dir, 'fresh.db'))).toBe(false);

    // The baseline cycle records what is there and announces nothing: nothing to deliver, nothing dead.
    const env = { NORTH_TOKEN: sim.token, HOOK_SECRET: secret };
    expect((await runCli(['poll', '--config', config, '--once'], env)).code).toBe(0);
    const polled = await runCli(['status', '--config', config], {});
    expect(polled.stdout).toMatch(
      /\nhealthy: every organization polled successfully within the allowance of its poll interval, nothing dead\n$/,
    );
    expect(polled.code).toBe(0);
  });

  it('migrates a state file an older meal-notifier wrote in place, keeping its orders, events and polls', async () => {
    const config = await writeConfig('older');
    const statePath = join(dir, 'older.db');
    const env = { NORTH_TOKEN: sim.token, HOOK_SECRET: secret };
    expect((await runCli(['poll', '--config', config, '--once'], env)).code).toBe(0);
    const before = contentsOf(statePath);
    expect(before.snapshots.length).toBeGreaterThan(0);
    rewriteAsSchema1(statePath);

    const upgraded = await runCli(['status', '--config', config], {});
    expect(upgraded.stderr).toBe('');
    expect(upgraded.stdout).toMatch(
      /\nhealthy: every organization polled successfully within the allowance of its poll interval, nothing dead\n$/,
    );
    expect(upgraded.code).toBe(0);
    const after = new Database(statePath, { readonly: true });
    try {
      expect(after.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(
        after.prepare("SELECT name FROM sqlite_master WHERE name = 'disabled_subscribers'").pluck().get(),
      ).toBe('disabled_subscribers');
    } finally {
      after.close();
    }
    // Each snapshot expires at the same instant as before, in ms again; the events and polls are as they were.
    expect(contentsOf(statePath)).toEqual(before);
  });
});

/** What a state file holds, in a form to compare: snapshots with their expiry, events, poll states. */
function contentsOf(path: string): { snapshots: unknown[]; events: unknown[]; polls: unknown[] } {
  const db = new Database(path, { readonly: true });
  try {
    return {
      snapshots: db.prepare('SELECT order_uuid, expires_at, data FROM snapshots ORDER BY order_uuid').all(),
      events: db.prepare('SELECT id, payload FROM events ORDER BY seq').all(),
      polls: db.prepare('SELECT organization_id, data FROM poll_states ORDER BY organization_id').all(),
    };
  } finally {
    db.close();
  }
}
