// `meal-notifier … | head -1`, through a real pipe into a real head: once head has its line and exits,
// the command ends quietly, exit 0 and no EPIPE stack trace, whichever command it is; the runner with
// --events - stops as it does on SIGTERM. Each output piped into head is well past a pipe's 64 KiB
// buffer, so the command is still writing when head goes; the orders table, smaller, goes into a pipe
// whose reader has gone before it is written.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OrderEventSchema } from '../../shared/events/orderEvent.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { timeoutFor } from '../support/loadedTimeouts.js';
import { runCli, runCliIntoClosedPipe, runCliIntoHead } from '../support/runCli.js';
import { runCliInProcess } from '../support/runCliInProcess.js';
import { makeWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';

/** Two CLI processes, or a runner and `head`, and the command run in-process. */
const TWO_RUNS = timeoutFor({ cliRuns: 2 });
/** A `poll --once`, the command piped into `head`, and in-process. */
const THREE_RUNS = timeoutFor({ cliRuns: 3 });

let sim: RunningSimulator;
let gone: WebhookReceiver;
let dir: string;
let apiEnv: Record<string, string>;
const secret = makeWebhookSecret();
const runnerEnv = () => ({ NORTH_TOKEN: sim.token, HOOK_SECRET: secret });

const writeConfig = (name: string, subscribers: unknown[]): Promise<string> =>
  writeNorthSchoolConfig(
    dir,
    sim,
    {
      api: { requestsPerMinute: 1000 },
      organization: {
        window: { daysBack: 0, daysAhead: 7 },
        // Every order in the window is an event of the first cycle: hundreds of them.
        emitExisting: true,
      },
      subscribers,
      state: `${name}.db`,
    },
    `${name}.json`,
  );

/** Twice a pipe's buffer: head reads a little and goes, and the command is still writing. */
const WELL_PAST_A_PIPE = 2 * 65_536;

/** No EPIPE, no stack trace: nothing an operator would take for a crash. */
function expectNoCrash(stderr: string): void {
  expect(stderr).not.toContain('EPIPE');
  expect(stderr).not.toMatch(/\n\s+at /);
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 47, scenario: false, initialOrders: 500, requestsPerMinute: 1000 });
  apiEnv = {
    MEAL_API_BASE_URL: sim.baseUrl,
    MEAL_API_ORGANIZATION: sim.organization.id,
    MEAL_API_TOKEN: sim.token,
  };
  // Gone: the first delivery disables the subscriber, and every event's delivery becomes a dead letter.
  gone = await startWebhookReceiver({
    secrets: [secret],
    respond: (_r, res) => void res.writeHead(410).end(),
  });
  dir = await mkdtemp(join(tmpdir(), 'closed-pipe-'));
});

afterAll(async () => {
  await Promise.all([gone.close(), sim.close()]);
  await rm(dir, { recursive: true, force: true });
});

describe('a command whose reader goes away', () => {
  it('orders ends quietly, as a table and as JSON (| head -1)', { timeout: TWO_RUNS }, async () => {
    const args = ['orders', '--time-zone', sim.world.timeZone];
    const [table, json] = await Promise.all([
      runCliIntoClosedPipe(args, apiEnv),
      runCliIntoHead([...args, '--json'], apiEnv),
    ]);

    expect(table.stderr).toBe('');
    expect(table.code).toBe(0);
    expect(json.firstLine).toBe('[\n');
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    for (const [name, value] of Object.entries(apiEnv)) vi.stubEnv(name, value);
    const whole = await runCliInProcess([...args, '--json']);
    vi.unstubAllEnvs();
    expect(Buffer.byteLength(whole.stdout)).toBeGreaterThan(WELL_PAST_A_PIPE);
  });

  it('deliveries --failed | head -1 ends quietly', { timeout: THREE_RUNS }, async () => {
    const config = await writeConfig('dead', [
      { id: 'legacy', type: 'webhook', url: gone.url, secret: { env: 'HOOK_SECRET' } },
    ]);
    expect((await runCli(['poll', '--config', config, '--once'], runnerEnv())).code).toBe(0);

    const piped = await runCliIntoHead(['deliveries', '--config', config, '--failed'], runnerEnv());

    expect(piped.firstLine).toMatch(/^┌─+┬/);
    expect(piped.stderr).toBe('');
    expect(piped.code).toBe(0);
    const whole = await runCliInProcess(['deliveries', '--config', config, '--failed']);
    expect(Buffer.byteLength(whole.stdout)).toBeGreaterThan(WELL_PAST_A_PIPE);
  });

  it('poll --events - | head -1 stops the runner as SIGTERM does, exit 0', {
    timeout: TWO_RUNS,
  }, async () => {
    const config = await writeConfig('runner', []);

    const piped = await runCliIntoHead(['poll', '--config', config, '--events', '-'], runnerEnv());

    expect(OrderEventSchema.parse(JSON.parse(piped.firstLine)).type).toBe('order.created');
    expectNoCrash(piped.stderr);
    expect(piped.stderr).toContain(
      'stdout closed: finishing the cycle and delivery attempts in flight, then stopping',
    );
    expect(piped.stderr).toMatch(/Stopped after \d+ s: \d{3,} events recorded/);
    expect(piped.code).toBe(0);
  });
});
