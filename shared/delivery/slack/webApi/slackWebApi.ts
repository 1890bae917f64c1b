// The Slack Web API as the kitchen's board needs it (a port): post a message (top level or in a thread,
// maybe broadcast), edit one, and the few reads check-config makes. Every answer is a result, never a
// throw, already sorted into what the caller does next (classifySlackApiAnswer.ts).
import type { SlackBlock } from '../slackBlocks.js';

export interface SlackPostRequest {
  channel: string;
  text: string;
  blocks: SlackBlock[];
  /** The board's ts: the message is a reply in its thread. */
  threadTs?: string;
  /** With threadTs: the reply is also shown in the channel. */
  broadcast?: boolean;
}

export interface SlackUpdateRequest {
  channel: string;
  ts: string;
  text: string;
  blocks: SlackBlock[];
}

/**
 * What went wrong, by what the caller does about it:
 * - `rate_limited`: wait `retryAfterMs` (Slack's Retry-After, or the pacing slot) before any call with the token;
 * - `message_gone`: the message was deleted (`message_not_found`, `cant_update_message`): post it again;
 * - `fix_by_hand`: the token or the channel needs a person (`invalid_auth`, `not_in_channel`, …); `action` says what;
 * - `transient`: Slack failed or could not be reached: retry on the schedule;
 * - `refused`: Slack refused this message (`invalid_blocks`, …): sending it again fails the same way.
 */
export type SlackApiFailure =
  | { kind: 'rate_limited'; reason: string; retryAfterMs: number }
  | { kind: 'message_gone'; reason: string; code: string }
  | { kind: 'fix_by_hand'; reason: string; code: string; action: string }
  | { kind: 'transient'; reason: string; retryAfterMs?: number }
  | { kind: 'refused'; reason: string; code?: string };

export type SlackApiResult = { ok: true; ts: string } | { ok: false; failure: SlackApiFailure };

export interface SlackWebApi {
  /** chat.postMessage, paced at one a second per channel. */
  postMessage(request: SlackPostRequest): Promise<SlackApiResult>;
  /** chat.update, paced within Slack's Tier 3 (about 50 a minute). */
  update(request: SlackUpdateRequest): Promise<SlackApiResult>;
  close(): Promise<void>;
}
