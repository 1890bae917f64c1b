// Delivers events to a Slack app subscriber as the kitchen's board: one message per establishment and
// pickup day, edited in place, and each order a reply in its thread, posted once and edited on every later
// change. It executes the pure decisions (decideReply, the renderers) against the Web API and the message
// map, which makes a restart or a second runner edit the same messages. Board edits are coalesced (at most
// one per board every `coalesceMs`; the last state always lands, at the latest on close), and while a
// backlog older than `catchUpAfter` drains, replies are edited quietly and the channel gets one line.
import { isCatchUp } from '../../../events/catchUpEvent.js';
import { isOrderEvent, isPrepSummary, type NotifierEvent } from '../../../events/notifierEvent.js';
import type { OrderEvent } from '../../../events/orderEvent.js';
import { eventForSubscriber } from '../../../events/orderSummary.js';
import type { PrepSummaryEvent } from '../../../events/prepSummaryEvent.js';
import { isSampleEvent } from '../../../events/sampleEvent.js';
import { changedAt, changeTimeOf, isStale } from '../../../events/staleness.js';
import type { ClosableSender, DeliveryOutcome } from '../../deliveryOutcome.js';
import { defaultHighlightWords, type HighlightWordsOf, highlightWordsFor } from '../../highlightWordsOf.js';
import type { SlackMessage } from '../slackBlocks.js';
import { formatSlackMessage } from '../slackMessage.js';
import type { SlackApiFailure, SlackWebApi } from '../webApi/slackWebApi.js';
import type { BoardKey, BoardMessages, BoardRecord, OrderCard, ReplyRecord } from './boardMessages.js';
import { type BoardPlace, placeLabel, placesOf } from './boardPlacement.js';
import { boardTotals, type ItemDelta } from './boardTotals.js';
import { boardVersion, NO_VERSION } from './boardVersion.js';
import { decideReply } from './decideReply.js';
import { cardOf, changesWhatIsCooked } from './orderCard.js';
import { renderBoard } from './renderBoard.js';
import { renderBackAfter, renderBroadcast, renderReply } from './renderReply.js';

export interface BoardSenderOptions {
  subscriberId: string;
  /** The channel id the boards go to. */
  channel: string;
  api: SlackWebApi;
  messages: BoardMessages;
  includeContactDetails: boolean;
  highlightWords?: HighlightWordsOf;
  /** The subscriber's catchUpAfter (ms): an event older than it is applied without a broadcast. */
  catchUpAfterMs?: number;
  clock?: () => number;
  /** Shortest gap between two edits of one board. @default 3_000 */
  coalesceMs?: number;
  /** How long no stale event must come before the one "⏪ Back after" line is posted. @default 5_000 */
  quietMs?: number;
}

/** A step that could not be done: the delivery's outcome says why. */
type Step<T> = { ok: true; value: T } | { ok: false; outcome: DeliveryOutcome };

interface Backlog {
  changes: number;
  afterClosing: number;
  oldestChangeMs: number;
  lastStaleAtMs: number;
}

interface Applied {
  reply: ReplyRecord;
  /** The card the board counted before this event; undefined when the order was not on it. */
  before: OrderCard | undefined;
  changed: boolean;
}

export class BoardSender implements ClosableSender {
  readonly subscriberId: string;
  readonly #options: BoardSenderOptions;
  readonly #clock: () => number;
  readonly #coalesceMs: number;
  readonly #quietMs: number;
  #chain: Promise<unknown> = Promise.resolve();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the scheduled flush falls due (epoch ms); undefined when none is. */
  #dueAt: number | undefined;
  #backlog: Backlog | undefined;
  #closed = false;

  constructor(options: BoardSenderOptions) {
    this.subscriberId = options.subscriberId;
    this.#options = options;
    this.#clock = options.clock ?? Date.now;
    this.#coalesceMs = options.coalesceMs ?? 3_000;
    this.#quietMs = options.quietMs ?? 5_000;
  }

  send(event: NotifierEvent): Promise<DeliveryOutcome> {
    return this.#serial(() => this.#send(event));
  }

  /** Edits every board whose changes are owed (all of them with `force`, else those past the coalescing gap). */
  flush(force = false): Promise<void> {
    return this.#serial(() => this.#flush(force));
  }

  /**
   * Waits for the coalesced edits that fall due by `untilMs` and makes them (the AWS function, before its
   * invocation returns). An edit owed later stays marked in the message map (`changedAt`): the next
   * invocation's flush for this subscriber makes it, so the last state lands.
   */
  async settle(untilMs: number): Promise<void> {
    await this.flush(false);
    while (this.#dueAt !== undefined && this.#dueAt <= untilMs && !this.#closed) {
      const waitMs = Math.max(0, this.#dueAt - this.#clock());
      await new Promise<void>((resolve) => setTimeout(resolve, waitMs));
      await this.flush(false);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    // The last state lands: what the coalescing held back is edited in before the connections close.
    await this.#serial(() => this.#flush(true)).catch(() => {});
    await this.#options.api.close();
  }

  /** One event or flush at a time: the timer's flush never interleaves with a send. */
  #serial<T>(step: () => Promise<T>): Promise<T> {
    const run = this.#chain.then(step, step);
    this.#chain = run.catch(() => {});
    return run;
  }

  async #send(event: NotifierEvent): Promise<DeliveryOutcome> {
    if (isSampleEvent(event)) return this.#postSample(event);
    if (isPrepSummary(event)) return this.#close(event);
    // A prep_changed is said by the board's deltas and the broadcast replies; a catch-up by the edits it stands for.
    if (!isOrderEvent(event) || isCatchUp(event)) return { kind: 'delivered' };
    const outcome = await this.#order(eventForSubscriber(event, this.#options.includeContactDetails));
    if (outcome.kind !== 'delivered') return outcome;
    await this.#flush(false);
    return outcome;
  }

  async #order(event: OrderEvent): Promise<DeliveryOutcome> {
    const now = this.#clock();
    const words = highlightWordsFor(event, this.#options.highlightWords ?? defaultHighlightWords);
    const version = boardVersion(event);
    const places = placesOf(event);
    const threshold = this.#options.catchUpAfterMs;
    // Dated by the change the event reports, not by its detection: after an outage the runner detects late
    // what happened long ago.
    const changeTime = changeTimeOf(event);
    const stale = threshold !== undefined && isStale(event, changeTime, now, threshold);

    const board = await this.#ensureBoard(places.current, event.data.organization.name);
    if (!board.ok) return board.outcome;
    const card = cardOf(event, words);
    const applied = await this.#applyReply(board.value, event, card, version, () =>
      renderReply(event, words, { canceled: card.canceled }),
    );
    if (!applied.ok) return applied.outcome;
    let afterClosing = 0;
    if (applied.value.changed) {
      await this.#markChanged(board.value);
      afterClosing += await this.#broadcastIfLate(board.value, event, words, applied.value, stale);
    }

    if (places.left !== undefined) {
      const leftKey = this.#keyOf(places.left);
      const stored = await this.#options.messages.board(leftKey);
      const leftBoard = stored?.ts ? { ...stored, ts: stored.ts } : undefined;
      const shown = await this.#options.messages.reply(leftKey, event.data.order.uuid);
      // Only a board that showed the order has a reply to edit; a move never posts in the day it left.
      if (leftBoard !== undefined && shown?.ts) {
        const movedTo = placeLabel(places.current);
        const movedCard = cardOf(event, words, movedTo);
        const moved = await this.#applyReply(leftBoard, event, movedCard, version, () =>
          renderReply(event, words, { canceled: movedCard.canceled, movedTo }),
        );
        if (!moved.ok) return moved.outcome;
        if (moved.value.changed) {
          await this.#markChanged(leftBoard);
          afterClosing += await this.#broadcastIfLate(leftBoard, event, words, moved.value, stale);
        }
      }
    }

    if (stale) {
      const changeMs = changedAt(event, changeTime);
      const backlog = this.#backlog ?? {
        changes: 0,
        afterClosing: 0,
        oldestChangeMs: changeMs,
        lastStaleAtMs: now,
      };
      backlog.changes += 1;
      backlog.afterClosing += afterClosing;
      backlog.oldestChangeMs = Math.min(backlog.oldestChangeMs, changeMs);
      backlog.lastStaleAtMs = now;
      this.#backlog = backlog;
    } else if (this.#backlog !== undefined) {
      await this.#postBackAfter(now);
    }
    return { kind: 'delivered' };
  }

  /** The board of `place`, posted first when it has none yet (claimed, so it is posted once). */
  async #ensureBoard(
    place: BoardPlace,
    organizationName: string,
  ): Promise<Step<BoardRecord & { ts: string }>> {
    const { messages } = this.#options;
    const now = this.#clock();
    const key = this.#keyOf(place);
    let record = await messages.board(key);
    if (record?.ts) return { ok: true, value: { ...record, ts: record.ts } };
    if (record === undefined) {
      const claim = await messages.claimBoard({
        ...key,
        ts: null,
        claimedAt: now,
        organizationName,
        establishmentName: place.establishmentName,
        atClosing: null,
        changedAt: null,
        renderedAt: null,
      });
      record = claim.record;
      if (record.ts) return { ok: true, value: { ...record, ts: record.ts } };
      if (!claim.claimed && now - record.claimedAt < 60_000) return this.#claimedElsewhere('board');
    } else if (now - record.claimedAt < 60_000 && record.claimedAt !== 0) {
      return this.#claimedElsewhere('board');
    }
    const message = renderBoard(
      record,
      boardTotals((await messages.replies(key)).map((reply) => reply.card)),
    );
    const posted = await this.#options.api.postMessage({ channel: this.#options.channel, ...message });
    if (!posted.ok) {
      // The claim is given up, so the retry posts it rather than waiting for the claim to run out.
      await messages.saveBoard({ ...record, claimedAt: 0 });
      return { ok: false, outcome: outcomeOf(posted.failure) };
    }
    const saved = { ...record, ts: posted.ts, renderedAt: this.#clock(), changedAt: null };
    await messages.saveBoard(saved);
    return { ok: true, value: saved };
  }

  /** Posts or edits the order's reply in `board`'s thread, as decideReply says. */
  async #applyReply(
    board: BoardRecord & { ts: string },
    event: OrderEvent,
    card: OrderCard,
    version: string,
    render: () => SlackMessage,
  ): Promise<Step<Applied>> {
    const { messages, api, channel } = this.#options;
    const key: BoardKey = {
      subscriberId: board.subscriberId,
      establishmentUuid: board.establishmentUuid,
      day: board.day,
    };
    const orderUuid = event.data.order.uuid;
    const existing = await messages.reply(key, orderUuid);
    const decision = decideReply(existing, version, this.#clock());
    switch (decision.kind) {
      case 'skip':
        return { ok: true, value: { reply: decision.reply, before: decision.reply.card, changed: false } };
      case 'wait':
        return this.#claimedElsewhere(`reply of ${event.data.order.reference}`, decision.retryAfterMs);
      case 'post': {
        let claimed: ReplyRecord;
        if (decision.takeOver) {
          claimed = { ...decision.takeOver, claimedAt: this.#clock() };
          if (!(await messages.saveReply(claimed, decision.takeOver.version)))
            return this.#claimedElsewhere(`reply of ${event.data.order.reference}`);
        } else {
          const claim = await messages.claimReply({
            ...key,
            orderUuid,
            ts: null,
            claimedAt: this.#clock(),
            version: NO_VERSION,
            shownVersion: null,
            card,
            broadcastVersion: null,
          });
          if (!claim.claimed) return this.#claimedElsewhere(`reply of ${event.data.order.reference}`);
          claimed = claim.record;
        }
        const posted = await api.postMessage({ channel, threadTs: board.ts, ...render() });
        if (!posted.ok) {
          await messages.saveReply({ ...claimed, claimedAt: 0 }, claimed.version);
          return { ok: false, outcome: outcomeOf(posted.failure) };
        }
        const saved = { ...claimed, ts: posted.ts, version, shownVersion: version, card };
        await messages.saveReply(saved, claimed.version);
        return { ok: true, value: { reply: saved, before: undefined, changed: true } };
      }
      case 'edit': {
        const previous = decision.reply;
        let next: ReplyRecord = { ...previous, version, card };
        // The version is claimed before the edit: a concurrent older event then skips rather than overwriting.
        if (previous.version !== version && !(await messages.saveReply(next, previous.version)))
          return this.#claimedElsewhere(`reply of ${event.data.order.reference}`, 1_000);
        const message = render();
        let answer = await api.update({ channel, ts: previous.ts ?? '', ...message });
        if (!answer.ok && answer.failure.kind === 'message_gone') {
          // Someone deleted the reply: post it again, and edit the new one from now on.
          answer = await api.postMessage({ channel, threadTs: board.ts, ...message });
          if (answer.ok) next = { ...next, ts: answer.ts };
        }
        if (!answer.ok) return { ok: false, outcome: outcomeOf(answer.failure) };
        next = { ...next, shownVersion: version };
        await messages.saveReply(next, version);
        const before = previous.version === NO_VERSION ? undefined : previous.card;
        return { ok: true, value: { reply: next, before, changed: true } };
      }
    }
  }

  /**
   * After closing, a change to what is cooked is also a reply broadcast to the channel, once per version.
   * @returns 1 when the change came after closing (broadcast, or held back during a catch-up), else 0
   */
  async #broadcastIfLate(
    board: BoardRecord & { ts: string },
    event: OrderEvent,
    words: readonly string[],
    applied: Applied,
    stale: boolean,
  ): Promise<number> {
    const { messages, api, channel } = this.#options;
    const fresh = await messages.board(board);
    if (!fresh?.atClosing || !changesWhatIsCooked(applied.before, applied.reply.card)) return 0;
    if (stale || applied.reply.broadcastVersion === applied.reply.version) return 1;
    const replies = await messages.replies(board);
    const now = boardTotals(replies.map((reply) => reply.card));
    const before = boardTotals(
      replies.flatMap((reply) =>
        reply.orderUuid !== applied.reply.orderUuid ? [reply.card] : applied.before ? [applied.before] : [],
      ),
    );
    const deltas = totalsDeltas(before.items, now.items);
    const posted = await api.postMessage({
      channel,
      threadTs: board.ts,
      broadcast: true,
      ...renderBroadcast(event, words, board, deltas),
    });
    // A broadcast that failed is not worth failing the delivery for: the reply and the board say it too.
    if (posted.ok) {
      await messages.saveReply(
        { ...applied.reply, broadcastVersion: applied.reply.version },
        applied.reply.version,
      );
    }
    return 1;
  }

  /** At closing the board becomes the prep list: what it counts now is what later deltas are against. */
  async #close(summary: PrepSummaryEvent): Promise<DeliveryOutcome> {
    const { messages } = this.#options;
    const place: BoardPlace = {
      establishmentUuid: summary.data.establishment.uuid.toLowerCase(),
      establishmentName: summary.data.establishment.name,
      day: summary.data.pickup_date,
    };
    const board = await this.#ensureBoard(place, summary.data.organization.name);
    if (!board.ok) return board.outcome;
    const fresh = (await messages.board(board.value)) ?? board.value;
    if (fresh.atClosing === null) {
      const totals = boardTotals((await messages.replies(fresh)).map((reply) => reply.card));
      await messages.saveBoard({
        ...fresh,
        atClosing: { closedAt: summary.data.closed_at, orders: totals.orders, items: totals.items },
        changedAt: fresh.changedAt ?? this.#clock(),
      });
    }
    await this.#flush(false);
    return { kind: 'delivered' };
  }

  async #postSample(event: NotifierEvent): Promise<DeliveryOutcome> {
    const words = isOrderEvent(event)
      ? highlightWordsFor(event, this.#options.highlightWords ?? defaultHighlightWords)
      : undefined;
    const message = formatSlackMessage(event, words);
    const posted = await this.#options.api.postMessage({ channel: this.#options.channel, ...message });
    return posted.ok ? { kind: 'delivered' } : outcomeOf(posted.failure);
  }

  async #markChanged(board: BoardRecord): Promise<void> {
    // Always marked, even if already owed: a render running elsewhere may have begun before this change.
    await this.#options.messages.markChanged(board, this.#clock());
  }

  /** Edits the boards whose changes are owed and past the coalescing gap; schedules the rest. */
  async #flush(force: boolean): Promise<void> {
    const { messages, api, channel } = this.#options;
    let nextAt: number | undefined;
    for (const board of await messages.boardsToRender(this.subscriberId)) {
      if (board.ts === null) continue;
      const now = this.#clock();
      const dueAt = (board.renderedAt ?? 0) + this.#coalesceMs;
      // What this render shows is read from now on: a change marked later stays owed (finishRender).
      if (!force && dueAt > now) {
        nextAt = Math.min(nextAt ?? dueAt, dueAt);
        continue;
      }
      const message = renderBoard(
        board,
        boardTotals((await messages.replies(board)).map((reply) => reply.card)),
      );
      let answer = await api.update({ channel, ts: board.ts, ...message });
      if (!answer.ok && answer.failure.kind === 'message_gone') {
        answer = await api.postMessage({ channel, ...message });
      }
      if (!answer.ok) {
        // Left owed: the next send or flush tries again.
        const retryAt =
          now +
          Math.max(
            this.#coalesceMs,
            'retryAfterMs' in answer.failure ? (answer.failure.retryAfterMs ?? 0) : 0,
          );
        nextAt = Math.min(nextAt ?? retryAt, retryAt);
        continue;
      }
      await messages.finishRender({ ...board, ts: answer.ts, renderedAt: this.#clock() }, now);
    }
    if (this.#backlog !== undefined) {
      const quietAt = this.#backlog.lastStaleAtMs + this.#quietMs;
      if (force || quietAt <= this.#clock()) await this.#postBackAfter(this.#clock());
      else nextAt = Math.min(nextAt ?? quietAt, quietAt);
    }
    this.#schedule(nextAt);
  }

  /** The one line in the channel once a backlog has drained. */
  async #postBackAfter(now: number): Promise<void> {
    const backlog = this.#backlog;
    if (backlog === undefined) return;
    this.#backlog = undefined;
    const message = renderBackAfter(now - backlog.oldestChangeMs, backlog.changes, backlog.afterClosing);
    await this.#options.api.postMessage({ channel: this.#options.channel, ...message });
  }

  #schedule(atMs: number | undefined): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#dueAt = undefined;
    if (atMs === undefined || this.#closed) return;
    this.#dueAt = atMs;
    this.#timer = setTimeout(
      () => {
        this.flush(false).catch(() => {});
      },
      Math.max(0, atMs - this.#clock()),
    );
    this.#timer.unref?.();
  }

  #keyOf(place: BoardPlace): BoardKey {
    return { subscriberId: this.subscriberId, establishmentUuid: place.establishmentUuid, day: place.day };
  }

  #claimedElsewhere<T>(what: string, retryAfterMs = 5_000): Step<T> {
    return {
      ok: false,
      outcome: {
        kind: 'retry',
        reason: `the ${what} is being posted by another runner; tried again shortly`,
        retryAfterMs,
      },
    };
  }
}

/** The board items whose totals moved between two countings. */
function totalsDeltas(
  before: readonly { name: string; quantity: number }[],
  after: readonly { name: string; quantity: number }[],
): ItemDelta[] {
  const from = new Map(before.map(({ name, quantity }) => [name, quantity]));
  const to = new Map(after.map(({ name, quantity }) => [name, quantity]));
  return [...new Set([...from.keys(), ...to.keys()])]
    .sort((a, b) => a.localeCompare(b))
    .flatMap((name) => {
      const a = from.get(name) ?? 0;
      const b = to.get(name) ?? 0;
      return a === b ? [] : [{ name, from: a, to: b }];
    });
}

/** A Web API failure as the delivery's outcome. */
export function outcomeOf(failure: SlackApiFailure): DeliveryOutcome {
  switch (failure.kind) {
    case 'rate_limited':
      return { kind: 'retry', reason: failure.reason, retryAfterMs: failure.retryAfterMs };
    case 'transient':
      return {
        kind: 'retry',
        reason: failure.reason,
        ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }),
      };
    case 'fix_by_hand':
      return { kind: 'paused', reason: failure.reason, action: failure.action };
    case 'refused':
      return { kind: 'dead', reason: failure.reason };
    case 'message_gone':
      return { kind: 'retry', reason: failure.reason };
  }
}
