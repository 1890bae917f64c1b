// What a runtime, tests and the demo may change about every sender; the Lambdas use the defaults.
import type { HttpClientFactory } from '../http/httpClient.js';
import type { SlackPacer } from './slack/slackPacer.js';

export interface SenderTuning {
  /** Longest one attempt may take. @default each sender's own (15 s) */
  timeoutMs?: number;
  /** @default the process-wide pacer */
  slackPacer?: SlackPacer;
  /** @default Date.now */
  clock?: () => number;
  /** How the webhook and Slack senders make their HTTP clients. @default Node's fetch */
  httpClient?: HttpClientFactory;
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
