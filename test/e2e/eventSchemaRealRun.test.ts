// Every event a real run sends validates against `meal-notifier event-schema`, and every type of the union
// is among them: `meal-notifier poll --once --events FILE` as a real process, three times, against the
// simulator and a webhook receiver, the world changed between runs so that each type happens, and one
// establishment's closing passed (both clocks moved past it, as digest.test.ts moves them) for its prep
// summary. The events file and the webhook bodies are validated with ajv against the printed schema, the
// webhook headers against the AsyncAPI document's. A type of the union that this run does not produce
// fails the test, named: a new type is covered here by making the run below produce it.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Establishment, Order } from '../../shared/api/schemas.js';
import { EVENT_TYPES } from '../../shared/events/notifierEvent.js';
import { addDays, calendarDateIn } from '../../shared/time/calendarDate.js';
import { isoWeekday, zoneOffsetMinutes } from '../../shared/time/zonedTime.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { runCli } from '../support/runCli.js';
import { type SlackReceiver, startSlackReceiver } from '../support/slackReceiver.js';
import { makeWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';

const SHIFTED_CLOCK = fileURLToPath(new URL('../support/shiftedClock.mjs', import.meta.url));
/** How far ahead of the baseline the canteen closes: room for a machine slow to start the first run. */
const CLOSES_IN_MS = 90_000;
/** How far past the closing both clocks are moved for the runs after the baseline. */
const PAST_CLOSING_MS = 3_000;

interface SentEvent {
  id: string;
  type: string;
  subject: string;
  data: Record<string, unknown>;
}

let sim: RunningSimulator;
let hook: WebhookReceiver;
let slack: SlackReceiver;
let dir: string;
let config: string;
let events: string;
/** Added to the real clock by both the simulator and the runner. */
let offsetMs = 0;
const secret = makeWebhookSecret();

/** A zone where the closing, and the baseline before it, fall well inside one day wherever the machine runs. */
function zoneAwayFromMidnight(at: number): string {
  for (const zone of ['Europe/Lisbon', 'Asia/Tokyo', 'America/Los_Angeles']) {
    const hour = new Date(at + zoneOffsetMinutes(zone, at) * 60_000).getUTCHours();
    if (hour >= 2 && hour < 21) return zone;
  }
  throw new Error('one of three zones 8 hours apart is always between 02:00 and 21:00');
}

beforeAll(async () => {
  const timeZone = zoneAwayFromMidnight(Date.now() + CLOSES_IN_MS);
  sim = await startSimulator({
    seed: 22,
    scenario: false,
    initialOrders: 6,
    timeZone,
    requestsPerMinute: 600,
    clock: () => Date.now() + offsetMs,
  });
  hook = await startWebhookReceiver({ secrets: [secret] });
  slack = await startSlackReceiver();
  dir = await mkdtemp(join(tmpdir(), 'event-schema-real-run-'));
  events = join(dir, 'events.jsonl');
  config = await writeNorthSchoolConfig(dir, sim, {
    api: { requestsPerMinute: 600 },
    // Tomorrow too, so that an order moved there is seen moving rather than vanishing.
    organization: { window: { daysBack: 0, daysAhead: 1 } },
    subscribers: [
      { id: 'automation', type: 'webhook', url: hook.url, secret: { env: 'HOOK_SECRET' } },
      // A person's channel, for whom changes older than a minute when they can be sent become a catch-up.
      { id: 'kitchen', type: 'slack', webhookUrl: { env: 'SLACK_URL' }, catchUpAfter: '1m' },
    ],
    state: 'state.db',
  });
});

afterAll(async () => {
  await Promise.all([hook?.close(), slack?.close(), sim?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** One `poll --once` that writes its events to the file, on the moved clock; it must succeed. */
async function pollOnce(): Promise<void> {
  const run = await runCli(['poll', '--config', config, '--once', '--events', events], {
    NORTH_TOKEN: sim.token,
    HOOK_SECRET: secret,
    SLACK_URL: slack.webhookUrl('kitchen'),
    NODE_OPTIONS: `--import ${SHIFTED_CLOCK}`,
    MEAL_NOTIFIER_TEST_CLOCK_OFFSET_MS: String(offsetMs),
  });
  expect(run.code, run.stderr).toBe(0);
}

/** The first establishment closes `CLOSES_IN_MS` from now, on a working day: its summary is for `pickupDate`. */
function closeCanteenSoon(): { canteen: Establishment; pickupDate: string; closesAt: number } {
  const [canteen] = sim.world.establishments();
  if (!canteen) throw new Error('the simulator has an establishment');
  const closesAt = Math.ceil((Date.now() + CLOSES_IN_MS) / 1000) * 1000;
  const { timeZone } = sim.world;
  const pickupDate = calendarDateIn(timeZone, closesAt);
  const local = new Date(closesAt + zoneOffsetMinutes(timeZone, closesAt) * 60_000);
  sim.world.setOrderClosingTime(canteen.uuid, local.toISOString().slice(11, 19));
  sim.world.setWorkingDays(canteen.uuid, [isoWeekday(pickupDate)]);
  return { canteen, pickupDate, closesAt };
}

async function cliJson(args: string[]): Promise<Record<string, unknown>> {
  const result = await runCli(args);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** Each problem as `<type> <id>: <path> <message>`, so a failure says which event and where. */
function problems(validate: ValidateFunction, event: SentEvent): string[] {
  const which = `${event.type} ${event.id}`;
  if (validate(event)) return [];
  return (validate.errors ?? []).map((error) => `${which}: ${error.instancePath} ${error.message}`);
}

describe('every event of a real run, against meal-notifier event-schema', () => {
  it('validates, and covers every type of the union', async () => {
    const { canteen, pickupDate, closesAt } = closeCanteenSoon();
    const orders = Array.from({ length: 6 }, () =>
      sim.world.addOrder({ pickupDate, establishment: canteen.uuid }),
    );
    const [completed, canceled, archived, updated, moved, edited] = orders as [
      Order,
      Order,
      Order,
      Order,
      Order,
      Order,
    ];

    // The baseline, before the closing: silent.
    await pollOnce();

    // Past the closing: the canteen's prep summary, and an order event of each kind. Later runs stay there.
    offsetMs = closesAt + PAST_CLOSING_MS - Date.now();
    sim.world.addOrder({ pickupDate, establishment: canteen.uuid });
    sim.world.setStatus(completed.uuid, 'completed');
    sim.world.setStatus(canceled.uuid, 'canceled');
    sim.world.setStatus(archived.uuid, 'archived');
    sim.world.setNotes(updated.uuid, 'Allergic to peanuts: no nuts at all, please.');
    sim.world.setPickupDate(moved.uuid, addDays(pickupDate, 1));
    await pollOnce();

    // A canceled order back to pending: a status move of no other kind. And a parent adds a portion to an
    // order the summary counted: the kitchen hears the delta (establishment.prep_changed).
    sim.world.setStatus(canceled.uuid, 'pending');
    const [line] = edited.items;
    if (!line) throw new Error('an order without items');
    sim.world.setItemQuantity(edited.uuid, line.uuid, line.quantity + 1);
    // The runner stopped for two minutes meanwhile: for the kitchen, those two changes are stale
    // (notifier.catch_up); the webhook still gets each.
    offsetMs += 2 * 60_000;
    await pollOnce();
    // A type added to the union: make it happen here, against the same world, then poll once more.

    const [catalog, asyncapi] = await Promise.all([
      cliJson(['event-schema']),
      cliJson(['event-schema', '--asyncapi']),
    ]);
    // zod writes a pattern beside each format it names, so formats need no plug-in to be checked.
    const validate = new Ajv2020({ allErrors: true, strict: true, validateFormats: false }).compile(catalog);
    const written = (await readFile(events, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as SentEvent);
    // What the log recorded, the catch-ups composed for people included.
    const logged = await runCli(['events', '--config', config, '--json', '--limit', '500']);
    expect(logged.code, logged.stderr).toBe(0);
    const recorded = (JSON.parse(logged.stdout) as Array<{ event: SentEvent }>).map(({ event }) => event);
    const delivered = hook.received.map((request) => JSON.parse(request.body) as SentEvent);

    expect(written.flatMap((event) => problems(validate, event))).toEqual([]);
    expect(recorded.flatMap((event) => problems(validate, event))).toEqual([]);
    expect(delivered.flatMap((event) => problems(validate, event))).toEqual([]);
    expect(delivered.map((event) => event.id).sort()).toEqual(written.map((event) => event.id).sort());

    // The webhook requests carry the headers the AsyncAPI document declares, signed with the secret.
    const ajv = new Ajv({ allErrors: true, strict: false });
    ajv.addSchema(asyncapi, 'asyncapi');
    const headers = ajv.getSchema('asyncapi#/components/schemas/StandardWebhooksHeaders');
    for (const request of hook.received) {
      expect(headers?.(request.headers), JSON.stringify(headers?.errors)).toBe(true);
      expect(request.verifiedBy).toEqual([true]);
    }

    const summary = written.find((event) => event.type === 'establishment.prep_summary');
    expect(summary?.subject).toBe(canteen.uuid);
    const produced = new Set([...written, ...recorded].map((event) => event.type));
    expect(
      EVENT_TYPES.filter((type) => !produced.has(type)),
      'types of the union this run produced no event of: make the run above produce each',
    ).toEqual([]);
  }, 120_000);
});
