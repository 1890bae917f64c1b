// What tests and the demo may change about every sender; production uses the defaults.
import type { SlackPacer } from './slack/slackPacer.js';

export interface SenderTuning {
  /** Longest one attempt may take. @default each sender's own (15 s) */
  timeoutMs?: number;
  /** @default the process-wide pacer */
  slackPacer?: SlackPacer;
  /** @default Date.now */
  clock?: () => number;
}

/** The tuning every sender takes, as options to spread. */
export function commonSenderOptions(tuning: SenderTuning): { timeoutMs?: number; clock?: () => number } {
  return {
    ...(tuning.timeoutMs === undefined ? {} : { timeoutMs: tuning.timeoutMs }),
    ...(tuning.clock === undefined ? {} : { clock: tuning.clock }),
  };
}
