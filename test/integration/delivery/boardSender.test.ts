// The kitchen's board through the real Web API client against the simulator's Slack Web API stand-in on
// 127.0.0.1 (on the test's clock), with
// the message map in a real SQLite state file: a new order is a reply in its board's thread, a later change
// edits it, an older event changes nothing, a 429 is waited out, a deleted reply is posted again, a token or
// channel needing a person pauses the subscriber, a restart edits what was posted before it, the board is
// the prep list after closing and a late change is broadcast, and a backlog is edited in with one line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderInput } from '../../../shared/api/schemas.js';
import { BoardSender } from '../../../shared/delivery/slack/board/boardSender.js';
import {
  SlackApiPacing,
  SlackWebApiClient,
} from '../../../shared/delivery/slack/webApi/slackWebApiClient.js';
import type { OrderEvent } from '../../../shared/events/orderEvent.js';
import { SqliteStateStore } from '../../../shared/store/sqlite/sqliteStateStore.js';
import { type SlackWebApiStandIn, startSlackWebApi } from '../../../simulator/inbox/slackWebApiServer.js';
import { DEFAULT_SLACK_CHANNEL, type SlackStoredMessage } from '../../../simulator/inbox/slackWorkspace.js';
import { DETECTED_AT } from '../../support/detectFixtures.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';
import { ESTABLISHMENT_UUID, makeOrderItem, orderUuid } from '../../support/orderFactory.js';
import { makePrepSummary } from '../../support/prepSummaryFixtures.js';

const CHANNEL = DEFAULT_SLACK_CHANNEL.id;
const DAY = '2026-03-05';

/** The channel as the stand-in holds it: its top-level messages and threads, and how often each was edited. */
interface ChannelView {
  topLevel(): SlackStoredMessage[];
  thread(ts: string): SlackStoredMessage[];
  message(ts: string): SlackStoredMessage | undefined;
  /** Successful chat.update calls of the message. */
  edits(ts: string): number;
}

function channelView(standIn: SlackWebApiStandIn): ChannelView {
  const messages = () => [...(standIn.workspace.channel(CHANNEL)?.messages.values() ?? [])];
  return {
    topLevel: () => messages().filter((message) => message.threadTs === undefined),
    thread: (ts) => standIn.workspace.thread(CHANNEL, ts).replies,
    message: (ts) => standIn.workspace.channel(CHANNEL)?.messages.get(ts),
    edits: (ts) =>
      standIn
        .calls()
        .filter(
          (call) =>
            call.method === 'chat.update' && call.status === 200 && !call.error && call.args.ts === ts,
        ).length,
  };
}

interface Harness {
  slack: ChannelView;
  standIn: SlackWebApiStandIn;
  now: { ms: number };
  slept: number[];
  sender(options?: {
    catchUpAfterMs?: number;
    pacing?: SlackApiPacing;
    coalesceMs?: number;
    token?: string;
  }): BoardSender;
  store: SqliteStateStore;
  statePath: string;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function harness(): Promise<Harness> {
  const now = { ms: Date.parse(DETECTED_AT) + 1_000 };
  const standIn = await startSlackWebApi({ now: () => now.ms });
  const dir = mkdtempSync(join(tmpdir(), 'board-sender-'));
  const statePath = join(dir, 'state.db');
  const store = new SqliteStateStore({ path: statePath, clock: () => now.ms });
  const slept: number[] = [];
  const senders: BoardSender[] = [];
  const sharedPacing = new SlackApiPacing();
  cleanups.push(async () => {
    await Promise.all(senders.map((sender) => sender.close()));
    await store.close();
    await standIn.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    slack: channelView(standIn),
    standIn,
    now,
    slept,
    store,
    statePath,
    sender: (options = {}) => {
      const api = new SlackWebApiClient({
        token: options.token ?? standIn.token,
        apiUrl: standIn.apiUrl,
        words: { tokenSecret: 'KITCHEN_SLACK_BOT_TOKEN', channel: CHANNEL },
        clock: () => now.ms,
        // Waits pass on the test's clock, never in real time.
        sleep: async (ms) => {
          slept.push(ms);
          now.ms += ms;
        },
        pacing: options.pacing ?? sharedPacing,
      });
      const sender = new BoardSender({
        subscriberId: 'kitchen',
        channel: CHANNEL,
        api,
        messages: store.boardMessages,
        includeContactDetails: false,
        clock: () => now.ms,
        coalesceMs: options.coalesceMs ?? 3_000,
        ...(options.catchUpAfterMs === undefined ? {} : { catchUpAfterMs: options.catchUpAfterMs }),
      });
      senders.push(sender);
      return sender;
    },
  };
}

let sequence = 0;
function anOrder(overrides: Partial<OrderInput> = {}): Partial<OrderInput> {
  sequence += 1;
  return {
    uuid: orderUuid(9_000 + sequence),
    reference: `NS-${1040 + sequence}`,
    pickup_at: DAY,
    items: [makeOrderItem({ sku: 'LAS', name: 'Lasagne', quantity: 2 })],
    ...overrides,
  };
}

function event(type: OrderEvent['type'], order: Partial<OrderInput>, detectedAt = DETECTED_AT): OrderEvent {
  // The API moves updated_at with every change, so a later event carries a later snapshot; the change it
  // reports (created, completed, canceled) happened when it was found, as the board dates it.
  const at = {
    'order.created': 'created_at',
    'order.completed': 'completed_at',
    'order.canceled': 'canceled_at',
  }[type as string];
  const changed = at === undefined ? {} : { [at]: detectedAt };
  return makeOrderEvent({ type, order: { ...changed, ...order, updated_at: detectedAt }, detectedAt });
}

function textOf(message: { blocks?: unknown[] | undefined } | undefined): string {
  return JSON.stringify(message?.blocks ?? []);
}

describe('the kitchen board through the Web API', () => {
  it('posts the board, then a new order as a reply in its thread, with the bot token as a bearer', async () => {
    const { slack, standIn, sender } = await harness();
    const order = anOrder();
    expect(await sender().send(event('order.created', order))).toEqual({ kind: 'delivered' });
    const [board] = slack.topLevel();
    expect(slack.topLevel()).toHaveLength(1);
    expect(board?.channel).toBe(CHANNEL);
    expect(textOf(board)).toContain('Thu 5 Mar');
    const thread = slack.thread(board?.ts ?? '');
    expect(thread).toHaveLength(1);
    expect(textOf(thread[0])).toContain(order.reference);
    // The stand-in takes a JSON call's token only as a bearer: every call was accepted.
    expect(standIn.calls().every((call) => call.status === 200 && call.error === undefined)).toBe(true);
  });

  it('edits the reply on completion and never posts the order twice; an older event changes nothing', async () => {
    const { slack, sender, now } = await harness();
    const board = sender();
    const order = anOrder();
    const created = event('order.created', order);
    await board.send(created);
    const replyTs = slack.thread(slack.topLevel()[0]?.ts ?? '')[0]?.ts ?? '';
    now.ms += 10_000;
    expect(await board.send(event('order.completed', order, '2026-03-05T10:05:00.000Z'))).toEqual({
      kind: 'delivered',
    });
    expect(slack.edits(replyTs)).toBe(1);
    expect(textOf(slack.message(replyTs))).toContain('Completed');
    // The creation delivered again (a retry, a replay) is older: the reply keeps showing the completion.
    await board.send(created);
    expect(slack.edits(replyTs)).toBe(1);
    expect(textOf(slack.message(replyTs))).toContain('Completed');
    expect(slack.thread(slack.topLevel()[0]?.ts ?? '')).toHaveLength(1);
  });

  it('coalesces board edits, and the last state lands', async () => {
    const { slack, sender, now } = await harness();
    // Longer than the posts' pacing (one a second) takes here.
    const board = sender({ coalesceMs: 60_000 });
    await board.send(event('order.created', anOrder()));
    const boardTs = slack.topLevel()[0]?.ts ?? '';
    now.ms += 500;
    await board.send(event('order.created', anOrder()));
    await board.send(event('order.created', anOrder()));
    // Within the coalescing gap of the board's post: not edited yet.
    expect(slack.edits(boardTs)).toBe(0);
    await board.flush(true);
    expect(slack.edits(boardTs)).toBe(1);
    expect(textOf(slack.message(boardTs))).toContain('3 orders to cook');
  });

  it('honours a 429: the call after it waits at least its Retry-After', async () => {
    const { standIn, sender, slept } = await harness();
    const board = sender();
    await board.send(event('order.created', anOrder()));
    standIn.forceRateLimit({ method: 'chat.postMessage', retryAfterSeconds: 7 });
    const limited = await board.send(event('order.created', anOrder()));
    expect(limited).toMatchObject({ kind: 'retry', retryAfterMs: 7_000 });
    const before = standIn.calls().length;
    slept.length = 0;
    expect(await board.send(event('order.created', anOrder()))).toEqual({ kind: 'delivered' });
    expect(slept[0]).toBeGreaterThanOrEqual(7_000);
    expect(standIn.calls().length).toBeGreaterThan(before);
    expect(standIn.calls().filter((call) => call.early)).toEqual([]);
  });

  it('posts a deleted reply again and goes on editing the new one', async () => {
    const { slack, standIn, sender, now } = await harness();
    const board = sender();
    const order = anOrder();
    await board.send(event('order.created', order));
    const boardTs = slack.topLevel()[0]?.ts ?? '';
    const firstTs = slack.thread(boardTs)[0]?.ts ?? '';
    standIn.workspace.deleteMessage(CHANNEL, firstTs);
    now.ms += 10_000;
    expect(await board.send(event('order.updated', order, '2026-03-05T10:05:00.000Z'))).toEqual({
      kind: 'delivered',
    });
    const [again] = slack.thread(boardTs);
    expect(again?.ts).not.toBe(firstTs);
    expect(textOf(again)).toContain('Changed');
    now.ms += 10_000;
    await board.send(event('order.canceled', order, '2026-03-05T10:10:00.000Z'));
    expect(slack.thread(boardTs)).toHaveLength(1);
    expect(slack.edits(again?.ts ?? '')).toBe(1);
  });

  it('pauses on a fix by hand, saying what to do, and catches up once fixed', async () => {
    const { slack, standIn, sender } = await harness();
    const created = event('order.created', anOrder());
    // A token Slack does not know.
    const refused = await sender({ token: 'xoxb-not-a-token-slack-knows' }).send(created);
    expect(refused).toMatchObject({
      kind: 'paused',
      action: expect.stringContaining('KITCHEN_SLACK_BOT_TOKEN'),
    });
    expect(JSON.stringify(refused)).not.toContain('xoxb-not-a-token-slack-knows');
    // The app removed from the channel.
    const board = sender();
    standIn.workspace.setBotMembership(CHANNEL, false);
    const paused = await board.send(created);
    expect(paused).toMatchObject({
      kind: 'paused',
      action: expect.stringContaining(`invite the app to channel ${CHANNEL}`),
    });
    standIn.workspace.setBotMembership(CHANNEL, true);
    expect(await board.send(created)).toEqual({ kind: 'delivered' });
    expect(slack.topLevel()).toHaveLength(1);
    expect(slack.thread(slack.topLevel()[0]?.ts ?? '')).toHaveLength(1);
  });

  it('after a restart, edits the messages posted before it', async () => {
    const { slack, sender, now } = await harness();
    const order = anOrder();
    await sender().send(event('order.created', order));
    const replyTs = slack.thread(slack.topLevel()[0]?.ts ?? '')[0]?.ts ?? '';
    now.ms += 10_000;
    // A new sender over the same state file: a restarted runner.
    await sender().send(event('order.completed', order, '2026-03-05T10:05:00.000Z'));
    expect(slack.topLevel()).toHaveLength(1);
    expect(slack.edits(replyTs)).toBe(1);
  });

  it('two senders handling one order at once post one reply', async () => {
    const { slack, sender } = await harness();
    const created = event('order.created', anOrder());
    const first = sender();
    await first.send(event('order.created', anOrder()));
    const second = sender({ pacing: new SlackApiPacing() });
    const outcomes = await Promise.all([first.send(created), second.send(created)]);
    expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['delivered', 'retry']);
    expect(slack.thread(slack.topLevel()[0]?.ts ?? '')).toHaveLength(2);
  });

  it('is the prep list after closing, and broadcasts a late cancellation but not a completion', async () => {
    const { slack, sender, now } = await harness();
    const board = sender();
    const kept = anOrder();
    const late = anOrder();
    await board.send(event('order.created', kept));
    await board.send(event('order.created', late));
    const summary = makePrepSummary([], {
      pickupDate: DAY,
      establishment: { uuid: ESTABLISHMENT_UUID, name: 'Main canteen' },
      closedAt: '2026-03-05T11:00:00+00:00',
    });
    now.ms += 10_000;
    expect(await board.send(summary)).toEqual({ kind: 'delivered' });
    const boardTs = slack.topLevel()[0]?.ts ?? '';
    expect(textOf(slack.message(boardTs))).toContain('📋 Prep list');
    expect(slack.topLevel()).toHaveLength(1);
    now.ms += 10_000;
    await board.send(event('order.canceled', late, '2026-03-05T11:05:00.000Z'));
    const broadcasts = slack.thread(boardTs).filter((message) => message.replyBroadcast);
    expect(broadcasts).toHaveLength(1);
    expect(broadcasts[0]?.text).toContain('Lasagne 4 → 2');
    now.ms += 10_000;
    await board.send(event('order.completed', kept, '2026-03-05T12:00:00.000Z'));
    expect(slack.thread(boardTs).filter((message) => message.replyBroadcast)).toHaveLength(1);
    await board.flush(true);
    expect(textOf(slack.message(boardTs))).toContain('Lasagne 4 → 2');
  });

  it('after an outage, edits the board and replies and says so in one line, with no broadcast', async () => {
    const { slack, sender, now } = await harness();
    const board = sender({ catchUpAfterMs: 15 * 60_000 });
    const orders = [anOrder(), anOrder(), anOrder()];
    await board.send(event('order.created', orders[0] ?? {}));
    await board.send(
      makePrepSummary([], {
        pickupDate: DAY,
        establishment: { uuid: ESTABLISHMENT_UUID, name: 'Main canteen' },
      }),
    );
    // Two hours later the backlog drains.
    now.ms += 2 * 3_600_000;
    await board.send(event('order.created', orders[1] ?? {}, DETECTED_AT));
    await board.send(event('order.canceled', orders[0] ?? {}, '2026-03-05T10:00:00.500Z'));
    await board.flush(true);
    const boardTs = slack.topLevel()[0]?.ts ?? '';
    expect(slack.thread(boardTs).filter((message) => message.replyBroadcast)).toHaveLength(0);
    const lines = slack.topLevel().filter((message) => message.text.startsWith('⏪'));
    expect(lines).toHaveLength(1);
    expect(lines[0]?.text).toMatch(/^⏪ Back after 2 h: 2 changes, 2 after closing$/);
  });
});
