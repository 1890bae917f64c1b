// What `meal-notifier poll` prints, run as a real process: the terminal is for people, so without
// --events nothing goes to stdout and stderr has one readable line per event and per delivery, in the
// demo's columns; the events themselves go where --events says (a file, appended to); --quiet leaves
// the warnings and errors alone, in either log format.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderEventSchema } from '../../shared/events/orderEvent.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { timeoutFor } from '../support/loadedTimeouts.js';
import { runCli } from '../support/runCli.js';
import { makeWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';
import { logLines } from './jsonLogLines.js';

/** Three `poll --once` processes one after another. */
const THREE_RUNS = timeoutFor({ cliRuns: 3 });
/** Two `poll --once` processes one after another. */
const TWO_RUNS = timeoutFor({ cliRuns: 2 });

let sim: RunningSimulator;
let receiver: WebhookReceiver;
let gone = false;
let dir: string;
const secret = makeWebhookSecret();
const env = () => ({ NORTH_TOKEN: sim.token, HOOK_SECRET: secret });

beforeAll(async () => {
  sim = await startSimulator({ seed: 53, scenario: false, initialOrders: 20 });
  receiver = await startWebhookReceiver({
    secrets: [secret],
    respond: (_request, res) => void res.writeHead(gone ? 410 : 204).end(),
  });
  dir = await mkdtemp(join(tmpdir(), 'poll-output-'));
});

afterAll(async () => {
  await Promise.all([receiver.close(), sim.close()]);
  await rm(dir, { recursive: true, force: true });
});

const writeConfig = (name: string): Promise<string> =>
  writeNorthSchoolConfig(
    dir,
    sim,
    {
      subscribers: [{ id: 'office', type: 'webhook', url: receiver.url, secret: { env: 'HOOK_SECRET' } }],
      state: `${name}.db`,
    },
    `${name}.json`,
  );

describe('meal-notifier poll output', () => {
  it('keeps events off stdout unless asked, tells each one in a line for people, and appends them to --events FILE', {
    timeout: THREE_RUNS,
  }, async () => {
    const config = await writeConfig('main');
    const events = join(dir, 'events.jsonl');
    const baseline = await runCli(['poll', '--config', config, '--once'], env());
    expect(baseline.code).toBe(0);
    const created = [
      sim.world.addOrder({ pickupDate: sim.world.today() }),
      sim.world.addOrder({ pickupDate: sim.world.today() }),
    ];

    const run = await runCli(['poll', '--config', config, '--once', '--events', events], env());

    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).not.toContain('specversion');
    for (const order of created) {
      const establishment = order.establishment.name;
      expect(run.stderr).toMatch(
        new RegExp(`^detected {3}created {4}${order.reference} +${establishment} +North School$`, 'm'),
      );
      expect(run.stderr).toMatch(
        new RegExp(
          `^delivered {2}created {4}${order.reference} +to office {2}\\d+(\\.\\d)? m?s after detection$`,
          'm',
        ),
      );
    }
    const written = (await readFile(events, 'utf8')).trimEnd().split('\n');
    expect(written.map((line) => OrderEventSchema.parse(JSON.parse(line)).subject).sort()).toEqual(
      created.map((order) => order.uuid).sort(),
    );

    // --quiet: the one line left is the delivery that failed; the file is appended to, not replaced.
    gone = true;
    const third = sim.world.addOrder({ pickupDate: sim.world.today() });
    const quiet = await runCli(['poll', '--config', config, '--once', '--quiet', '--events', events], env());
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe('');
    expect(quiet.stderr).toMatch(
      new RegExp(
        `^failed {5}created {4}${third.reference} +to office {2}subscriber disabled, nothing more is sent to it: .*410.*\\n$`,
      ),
    );
    expect((await readFile(events, 'utf8')).trimEnd().split('\n')).toHaveLength(3);
  });

  it('--quiet --log-format json keeps only warnings and errors, each one JSON object', {
    timeout: TWO_RUNS,
  }, async () => {
    gone = false;
    const config = await writeConfig('json');
    expect((await runCli(['poll', '--config', config, '--once'], env())).code).toBe(0);
    gone = true;
    const order = sim.world.addOrder({ pickupDate: sim.world.today() });

    const run = await runCli(
      ['poll', '--config', config, '--once', '--quiet', '--log-format', 'json'],
      env(),
    );

    expect(run.code).toBe(0);
    const records = logLines(run.stderr);
    expect(records).toEqual([
      expect.objectContaining({
        level: 'error',
        kind: 'delivery',
        reference: order.reference,
        state: 'subscriber_disabled',
      }),
    ]);
  });

  it('refuses an --events file it cannot write, before polling, with one line', async () => {
    const config = await writeConfig('unwritable');
    const before = sim.requestLog.size;
    const run = await runCli(
      ['poll', '--config', config, '--once', '--events', join(dir, 'missing', 'events.jsonl')],
      env(),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `meal-notifier: --events ${join(dir, 'missing', 'events.jsonl')}: cannot open it to append events: its directory does not exist\n`,
    );
    expect(sim.requestLog.size).toBe(before);
  });
});
