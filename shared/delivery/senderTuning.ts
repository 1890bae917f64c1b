// What a runtime, tests and the demo may change about every sender; the Lambdas use the defaults.
import type { HttpClientFactory } from '../http/httpClient.js';
import type { BoardMessages } from './slack/board/boardMessages.js';
import type { SlackPacer } from './slack/slackPacer.js';
import type { SlackApiPacing } from './slack/webApi/slackWebApiClient.js';

export interface SenderTuning {
  /** Longest one attempt may take. @default each sender's own (15 s) */
  timeoutMs?: number;
  /** @default the process-wide pacer */
  slackPacer?: SlackPacer;
  /** @default Date.now */
  clock?: () => number;
  /** How the webhook and Slack senders make their HTTP clients. @default Node's fetch */
  httpClient?: HttpClientFactory;
  /** The kitchen board's message map (Slack app subscribers): the state file's. @default in memory */
  boardMessages?: BoardMessages;
  /** The Slack Web API pacing. @default the process-wide one */
  slackApiPacing?: SlackApiPacing;
  /** Shortest gap between two edits of one board. @default 3_000 */
  boardCoalesceMs?: number;
  /** How the Web API client waits for its pacing slots. @default a setTimeout-based sleep */
  sleep?: (ms: number) => Promise<void>;
}

/** The tuning every sender takes, as options to spread. */
export function commonSenderOptions(tuning: SenderTuning): {
  timeoutMs?: number;
  clock?: () => number;
  httpClient?: HttpClientFactory;
} {
  return {
    ...(tuning.timeoutMs === undefined ? {} : { timeoutMs: tuning.timeoutMs }),
    ...(tuning.clock === undefined ? {} : { clock: tuning.clock }),
    ...(tuning.httpClient === undefined ? {} : { httpClient: tuning.httpClient }),
  };
}
