// The kitchen's Slack board (issue 30) as a user runs it: `meal-notifier poll` as a real process against
// the simulator, delivering through a Slack app subscriber to the simulator's own Slack Web API stand-in on
// 127.0.0.1 (simulator/inbox/slackWebApiServer.ts). What the channel shows is read from the stand-in's
// workspace, and when each call came from its record of calls, stamped by its own clock. Waits are on the
// workspace's changes (or, for a call that changes nothing, on its records), never on a timer. The runner
// is started again on a clock moved ahead (test/support/shiftedClock.mjs) to cross a closing or an outage.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Establishment, Order } from '../../shared/api/schemas.js';
import { addDays, calendarDateIn } from '../../shared/time/calendarDate.js';
import { dayLabel } from '../../shared/time/dayLabel.js';
import { isoWeekday, zoneOffsetMinutes } from '../../shared/time/zonedTime.js';
import { type SlackWebApiStandIn, startSlackWebApi } from '../../simulator/inbox/slackWebApiServer.js';
import type { SlackStoredMessage } from '../../simulator/inbox/slackWorkspace.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { type RunningCli, runCli, startCli } from '../support/runCli.js';
import { when } from './jsonLogLines.js';

const SHIFTED_CLOCK = fileURLToPath(new URL('../support/shiftedClock.mjs', import.meta.url));
const FAST_FORWARD = fileURLToPath(new URL('../support/fastForwardClock.mjs', import.meta.url));
const BASELINE = /^North School: .*, 0 events(, cadence \w+)?, next in \d+ s$/m;
/** Longer than the subscriber's catchUpAfter (15 minutes, the default). */
const OUTAGE_MS = 20 * 60_000;

let sim: RunningSimulator | undefined;
let slack: SlackWebApiStandIn;
let dir: string | undefined;
let config: string;
let canteen: Establishment;
/** Added to the real clock by the simulator, and by a runner started with it. */
let offsetMs = 0;
const runners: RunningCli[] = [];

afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop('SIGKILL')));
  await Promise.all([slack?.close(), sim?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
  sim = undefined;
  dir = undefined;
  offsetMs = 0;
});

/**
 * A zone where the whole test (and an outage's shift) falls well inside one day wherever the machine
 * runs: a day crossed would move "today" and its board.
 */
function zoneAwayFromMidnight(at: number): string {
  for (const zone of ['Europe/Lisbon', 'Asia/Tokyo', 'America/Los_Angeles']) {
    const hour = new Date(at + zoneOffsetMinutes(zone, at) * 60_000).getUTCHours();
    if (hour >= 2 && hour < 21) return zone;
  }
  throw new Error('one of three zones 8 hours apart is always between 02:00 and 21:00');
}

/** "HH:MM:SS" of `at` on the zone's clock. */
function localClock(at: number, timeZone: string): string {
  return new Date(at + zoneOffsetMinutes(timeZone, at) * 60_000).toISOString().slice(11, 19);
}

/**
 * The simulator (its first establishment, the canteen, closing at `closesAt` or late in the evening), the
 * stand-in, and a config whose Slack app subscriber keeps the canteen's board in the stand-in's channel.
 */
async function setUp({
  closesAt,
  organization = { pollIntervalSeconds: 2 },
}: {
  closesAt?: number;
  organization?: Record<string, unknown>;
} = {}): Promise<void> {
  const timeZone = zoneAwayFromMidnight((closesAt ?? Date.now()) + OUTAGE_MS);
  sim = await startSimulator({
    seed: 30,
    scenario: false,
    initialOrders: 6,
    timeZone,
    requestsPerMinute: 600,
    clock: () => Date.now() + offsetMs,
  });
  slack = await startSlackWebApi();
  const [first] = sim.world.establishments();
  if (!first) throw new Error('the simulator has an establishment');
  canteen = first;
  const today = calendarDateIn(timeZone, closesAt ?? Date.now());
  sim.world.setWorkingDays(canteen.uuid, [isoWeekday(today)]);
  // Late in the evening unless the test closes the kitchen itself: no closing comes by chance.
  sim.world.setOrderClosingTime(canteen.uuid, closesAt ? localClock(closesAt, timeZone) : '23:30:00');
  dir = await mkdtemp(join(tmpdir(), 'poll-kitchen-board-'));
  config = await writeNorthSchoolConfig(dir, sim, {
    api: { requestsPerMinute: 600 },
    organization: { window: { daysBack: 0, daysAhead: 1 }, ...organization },
    subscribers: [
      {
        id: 'kitchen',
        type: 'slack',
        botToken: { env: 'KITCHEN_SLACK_BOT_TOKEN' },
        channel: slack.channel,
        apiUrl: slack.apiUrl,
        filter: { establishments: [canteen.uuid] },
      },
    ],
    state: 'state.db',
  });
}

function runnerEnv(): Record<string, string> {
  return {
    NORTH_TOKEN: sim?.token ?? '',
    KITCHEN_SLACK_BOT_TOKEN: slack.token,
    ...(offsetMs === 0
      ? {}
      : { NODE_OPTIONS: `--import ${SHIFTED_CLOCK}`, MEAL_NOTIFIER_TEST_CLOCK_OFFSET_MS: String(offsetMs) }),
  };
}

/** `poll` running, past its silent first cycle. */
async function startRunner(args: string[] = [], env: Record<string, string> = {}): Promise<RunningCli> {
  const runner = startCli(['poll', '--config', config, ...args], { ...runnerEnv(), ...env });
  runners.push(runner);
  await runner.waitForStderr(BASELINE);
  return runner;
}

function addOrder(): Order {
  if (!sim) throw new Error('set up first');
  return sim.world.addOrder({ pickupDate: sim.world.today(), establishment: canteen.uuid });
}

const channelMessages = (): SlackStoredMessage[] => [
  ...(slack.workspace.channel(slack.channel)?.messages.values() ?? []),
];
const topLevel = () => channelMessages().filter((message) => message.threadTs === undefined);
/** The board: the first message of the channel. */
const board = () => topLevel()[0];
const shows = (message: SlackStoredMessage | undefined, text: string) =>
  message !== undefined && `${message.text}${JSON.stringify(message.blocks)}`.includes(text);
/** The replies in the board's thread that show the order, broadcasts left out. */
const repliesOf = (order: Order) =>
  channelMessages().filter(
    (message) =>
      message.threadTs !== undefined &&
      message.threadTs === board()?.ts &&
      !message.replyBroadcast &&
      shows(message, order.reference),
  );
const posts = (from = 0) =>
  slack
    .calls()
    .slice(from)
    .filter((call) => call.method === 'chat.postMessage' && call.status === 200);
const updatesOf = (ts: string | undefined, from = 0) =>
  slack
    .calls()
    .slice(from)
    .filter((call) => call.method === 'chat.update' && call.status === 200 && call.args.ts === ts);

/**
 * Resolves once `check` holds, looked at again on every change to the channel; rejects with the runner's
 * output if it ends first.
 */
function untilChannel(description: string, check: () => boolean, runner?: RunningCli): Promise<void> {
  return new Promise((resolve, reject) => {
    const look = () => {
      if (!check()) return;
      stop();
      resolve();
    };
    // Looked at once the call that made the change is done, so that the stand-in's record of it is there.
    const stop = slack.workspace.onChange(() => queueMicrotask(look));
    runner?.waitForStderr(when('the runner never ends by itself', () => false)).catch((error: Error) => {
      stop();
      reject(new Error(`waiting for ${description}: ${error.message}`));
    });
    look();
  });
}

// A test runs one or two runner processes for 7 to 23 s on a quiet machine (cycles 2 s apart, posts paced a
// second apart, board edits 3 s apart, a 5 s quiet before the "back after" line); twice the system default
// holds that with two CPU-bound processes beside the run.
describe('meal-notifier poll to a Slack app subscriber (the kitchen board)', { timeout: 120_000 }, () => {
  it('posts a new order as a reply in its board thread, and its completion edits that reply', async () => {
    await setUp();
    const runner = await startRunner();

    const order = addOrder();
    await untilChannel('the order as a reply', () => repliesOf(order).length > 0, runner);
    expect(topLevel()).toHaveLength(1);
    expect(shows(board(), canteen.name)).toBe(true);
    const [reply] = repliesOf(order);
    // Posted in the board's thread by the runner: the call named the board's ts.
    const replyPost = posts().find((call) => shows(reply, String(call.args.text)));
    expect(replyPost?.args.thread_ts).toBe(board()?.ts);

    sim?.world.setStatus(order.uuid, 'completed');
    await untilChannel(
      'the reply edited to completed',
      () => repliesOf(order).some((message) => message.editedTs && shows(message, 'Completed')),
      runner,
    );
    // The same message edited in place: no second reply, no second board.
    expect(repliesOf(order).map((message) => message.ts)).toEqual([reply?.ts]);
    expect(updatesOf(reply?.ts).length).toBeGreaterThanOrEqual(1);
    expect(topLevel()).toHaveLength(1);
    expect(posts()).toHaveLength(2);
    // The token went only in the Authorization header, never into what the runner printed.
    expect(`${runner.output.stdout}${runner.output.stderr}`).not.toContain(slack.token);
  });

  it('coalesces the board edits of a burst: at most one every 3 s, and the last state lands', async () => {
    await setUp();
    const runner = await startRunner();
    const orders = [addOrder(), addOrder(), addOrder(), addOrder(), addOrder()];
    await untilChannel(
      'every reply, and the board counting them all',
      () => orders.every((order) => repliesOf(order).length === 1) && shows(board(), '5 orders to cook'),
      runner,
    );
    // By the stand-in's clock: each edit of the board came at least the coalescing gap after the last one.
    const edits = updatesOf(board()?.ts).map((call) => call.at);
    expect(edits.length).toBeGreaterThanOrEqual(1);
    expect(edits.length).toBeLessThan(orders.length);
    for (const [index, at] of edits.entries()) {
      if (index > 0) expect(at - (edits[index - 1] ?? 0)).toBeGreaterThanOrEqual(3_000);
    }
  });

  it('after a 429 with Retry-After, makes no call with that token before the Retry-After is over', async () => {
    await setUp();
    const runner = await startRunner();
    const first = addOrder();
    await untilChannel('the first reply', () => repliesOf(first).length > 0, runner);

    // Slack refuses the board's next edit (coalesced, a few seconds after the reply) for 4 s.
    slack.forceRateLimit({ method: 'chat.update', retryAfterSeconds: 4, times: 1 });
    await expect
      .poll(() => slack.calls().some((call) => call.status === 429), { timeout: 30_000, interval: 50 })
      .toBe(true);
    const limited = slack.calls().findIndex((call) => call.status === 429);
    const retryAfterOverAt = (slack.calls()[limited]?.at ?? 0) + 4_000;
    // Meanwhile a new order comes: its reply, and the board's edit, wait for the Retry-After.
    const second = addOrder();
    await untilChannel('the second reply', () => repliesOf(second).length > 0, runner);
    await untilChannel(
      'the board edited again',
      () => updatesOf(board()?.ts, limited + 1).length > 0,
      runner,
    );

    const after = slack.calls().slice(limited + 1);
    expect(after.length).toBeGreaterThan(0);
    // The stand-in's own clock: every later call came once the Retry-After was over; none came early.
    for (const call of after)
      expect(call.at, `${call.method} at ${call.at}`).toBeGreaterThanOrEqual(retryAfterOverAt);
    expect(slack.calls().filter((call) => call.early)).toEqual([]);
    expect(repliesOf(second)).toHaveLength(1);
  });

  it('posts a deleted reply again at the next change, and edits the new one from then on', async () => {
    await setUp();
    const runner = await startRunner();
    const order = addOrder();
    await untilChannel('the reply', () => repliesOf(order).length > 0, runner);
    const deleted = repliesOf(order)[0]?.ts ?? '';

    // Someone deletes the reply in Slack; then the order's notes change.
    slack.workspace.deleteMessage(slack.channel, deleted);
    sim?.world.setNotes(order.uuid, 'Leave at the side door');
    await untilChannel(
      'the reply posted again',
      () => repliesOf(order).some((message) => shows(message, 'side door')),
      runner,
    );
    const again = repliesOf(order)[0]?.ts;
    expect(again).not.toBe(deleted);
    const callsBefore = slack.calls().length;

    // The next change edits the new reply, not the deleted one, and posts nothing more.
    sim?.world.setStatus(order.uuid, 'completed');
    await untilChannel(
      'the new reply edited',
      () => repliesOf(order).some((message) => message.editedTs && shows(message, 'Completed')),
      runner,
    );
    expect(repliesOf(order).map((message) => message.ts)).toEqual([again]);
    expect(updatesOf(again, callsBefore).length).toBeGreaterThanOrEqual(1);
    expect(updatesOf(deleted, callsBefore)).toEqual([]);
    expect(posts(callsBefore)).toEqual([]);
  });

  it("edits a rescheduled order's reply to say where it went, and posts it in the new day's thread", async () => {
    await setUp();
    const runner = await startRunner();
    const order = addOrder();
    await untilChannel('the reply', () => repliesOf(order).length > 0, runner);
    const [today] = topLevel();
    const [before] = repliesOf(order);

    const tomorrow = addDays(sim?.world.today() ?? '', 1);
    sim?.world.setPickupDate(order.uuid, tomorrow);
    const threadOf = (board: SlackStoredMessage | undefined) =>
      board === undefined ? [] : slack.workspace.thread(slack.channel, board.ts).replies;
    await untilChannel(
      "the new day's board with the reply, the old reply saying where it went",
      () =>
        topLevel().length === 2 &&
        threadOf(topLevel()[1]).some((message) => shows(message, order.reference)) &&
        shows(slack.workspace.channel(slack.channel)?.messages.get(before?.ts ?? ''), 'Moved to'),
      runner,
    );
    const moved = slack.workspace.channel(slack.channel)?.messages.get(before?.ts ?? '');
    expect(moved?.text).toContain(`moved to ${dayLabel(tomorrow)}, ${canteen.name}`);
    expect(moved?.threadTs).toBe(today?.ts);
    const next = topLevel()[1];
    expect(shows(next, dayLabel(tomorrow))).toBe(true);
    expect(threadOf(next).filter((message) => shows(message, order.reference))).toHaveLength(1);
    expect(threadOf(today).filter((message) => shows(message, order.reference))).toHaveLength(1);
  });

  it('edits after a restart the board and reply posted before it', async () => {
    await setUp();
    const env = runnerEnv();
    expect((await runCli(['poll', '--config', config, '--once'], env)).code).toBe(0);
    const order = addOrder();
    const created = await runCli(['poll', '--config', config, '--once'], env);
    expect(created.code).toBe(0);
    const [reply] = repliesOf(order);
    const boardTs = board()?.ts;
    expect(reply).toBeDefined();
    const callsBefore = slack.calls().length;

    // A new process, the same state file: the completion edits what the first process posted.
    sim?.world.setStatus(order.uuid, 'completed');
    const completed = await runCli(['poll', '--config', config, '--once'], env);
    expect(completed.code).toBe(0);
    expect(posts(callsBefore)).toEqual([]);
    expect(updatesOf(reply?.ts, callsBefore)).toHaveLength(1);
    expect(updatesOf(boardTs, callsBefore)).toHaveLength(1);
    expect(shows(repliesOf(order)[0], 'Completed')).toBe(true);
    expect(topLevel().map((message) => message.ts)).toEqual([boardTs]);
    expect(`${created.stdout}${created.stderr}${completed.stdout}${completed.stderr}`).not.toContain(
      slack.token,
    );
  });

  it('makes the board the prep list at closing, and broadcasts a cancellation after it', async () => {
    // The kitchen closes in 5 minutes; the runner is started again 6 minutes on.
    const closesAt = Math.ceil((Date.now() + 5 * 60_000) / 1000) * 1000;
    await setUp({ closesAt });
    const first = await startRunner();
    const kept = addOrder();
    const canceled = addOrder();
    await untilChannel(
      'both replies',
      () => repliesOf(kept).length > 0 && repliesOf(canceled).length > 0,
      first,
    );
    expect(shows(board(), 'Prep list')).toBe(false);
    expect(await first.stop('SIGTERM')).toBe(0);

    offsetMs = 6 * 60_000;
    const second = await startRunner();
    await untilChannel('the board as the prep list', () => shows(board(), 'Prep list'), second);
    const callsBefore = slack.calls().length;
    // No separate prep-summary post: the board is the prep list.
    expect(topLevel()).toHaveLength(1);

    sim?.world.setStatus(canceled.uuid, 'canceled');
    const broadcasts = () =>
      channelMessages().filter((message) => message.replyBroadcast && shows(message, canceled.reference));
    await untilChannel(
      'the cancellation broadcast, its reply edited',
      () =>
        broadcasts().length > 0 &&
        repliesOf(canceled).some((message) => message.editedTs && shows(message, 'Canceled')),
      second,
    );
    const [broadcast] = broadcasts();
    expect(broadcast?.threadTs).toBe(board()?.ts);
    expect(posts(callsBefore).filter((call) => call.args.reply_broadcast === true)).toHaveLength(1);
    // The board still the only top-level message, its deltas against closing once its edit lands.
    await untilChannel('the board showing the change since closing', () => shows(board(), '→'), second);
    expect(topLevel()).toHaveLength(1);
    expect(repliesOf(kept)).toHaveLength(1);
  });

  it('after an outage longer than catchUpAfter, edits the replies and posts at most one line', async () => {
    await setUp();
    const first = await startRunner();
    const orders = [addOrder(), addOrder(), addOrder()] as const;
    await untilChannel('three replies', () => orders.every((order) => repliesOf(order).length > 0), first);
    expect(await first.stop('SIGTERM')).toBe(0);
    const repliesBefore = orders.map((order) => repliesOf(order)[0]?.ts);

    // While the runner is down, the orders change; it is started again twenty minutes later.
    const [canceled, noted, completed] = orders;
    sim?.world.setStatus(canceled.uuid, 'canceled');
    sim?.world.setNotes(noted.uuid, 'Peanut allergy: no nuts at all');
    sim?.world.setStatus(completed.uuid, 'completed');
    const callsBefore = slack.calls().length;
    offsetMs = OUTAGE_MS;
    const second = await startRunner();
    await untilChannel(
      'the replies edited and one line posted',
      () =>
        shows(repliesOf(canceled)[0], 'Canceled') &&
        shows(repliesOf(noted)[0], 'Peanut') &&
        shows(repliesOf(completed)[0], 'Completed') &&
        topLevel().some((message) => message.text.startsWith('⏪ Back after')),
      second,
    );

    // One post to the channel, the "back after" line; every change an edit of the reply it was posted as.
    const posted = posts(callsBefore);
    expect(posted.map((call) => String(call.args.text))).toEqual([expect.stringMatching(/^⏪ Back after/)]);
    expect(posted[0]?.args.thread_ts).toBeUndefined();
    expect(channelMessages().filter((message) => message.replyBroadcast)).toEqual([]);
    expect(orders.map((order) => repliesOf(order).map((message) => message.ts))).toEqual(
      repliesBefore.map((ts) => [ts]),
    );
    for (const ts of repliesBefore) expect(updatesOf(ts, callsBefore).length).toBeGreaterThanOrEqual(1);
  });
  it('pauses while the app is out of the channel, keeping its deliveries, says what to do, and brings the board up to date once invited', async () => {
    // Cycles a minute apart, and the paused subscriber probed once a minute: the runner's clock is moved
    // past each wait (test/support/fastForwardClock.mjs), not slept through.
    await setUp({ organization: { pollIntervalSeconds: 60, cadence: 'fixed' } });
    const runner = await startRunner(['--metrics-port', '0'], {
      NODE_OPTIONS: `--import ${FAST_FORWARD}`,
      MEAL_NOTIFIER_TEST_FAST_FORWARD_AT_LEAST_MS: '30000',
    });
    const metrics = /health on (http:\/\/127\.0\.0\.1:\d+)\/healthz/.exec(
      await runner.waitForStderr(/health on http:\/\/127\.0\.0\.1:\d+\/healthz/),
    )?.[1];

    // Someone removes the app from the channel; two orders come.
    slack.workspace.setBotMembership(slack.channel, false);
    const orders = [addOrder(), addOrder()];
    runner.signal('SIGUSR2');
    await runner.waitForStderr(/subscriber paused, its deliveries kept: .*invite the app to channel/);
    const todo = `subscriber kitchen is paused: the Slack app is not in the channel`;
    const health = await fetch(`${metrics}/healthz`);
    const problems = (await health.text()).split('\n');
    expect(health.status).toBe(503);
    // One line: what is wrong, what to do, and that nothing is lost.
    expect(problems.filter((line) => line.startsWith(todo))).toEqual([
      expect.stringMatching(
        /invite the app to channel C0KITCHEN1 .*; its deliveries are kept and go out once that is done$/,
      ),
    ]);
    const status = await runCli(['status', '--config', config], runnerEnv());
    expect(status.stdout.split('\n').filter((line) => line.startsWith(todo))).toEqual(
      problems.filter((line) => line.startsWith(todo)),
    );
    expect(channelMessages()).toEqual([]);

    // Invited back: at the next probe the board and both replies go out, each once.
    slack.workspace.setBotMembership(slack.channel, true);
    runner.signal('SIGUSR2');
    await untilChannel(
      'the board and both replies',
      () => orders.every((order) => repliesOf(order).length === 1),
      runner,
    );
    expect(topLevel()).toHaveLength(1);
    expect((await fetch(`${metrics}/healthz`)).status).toBe(200);
  });
});
