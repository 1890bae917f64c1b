// Post or edit (pure): the one decision, for an order's reply in one board's thread, that the local runner
// and the AWS Slack function both execute. A reply is posted once: a claim (a conditional insert) comes
// first, and a claim left by a handler that died while posting is taken over after CLAIM_TTL_MS. An
// event older than what the reply shows changes nothing; one newer is an edit; the same one handled again
// (a retry) edits again only while the message does not show it yet.
import { CLAIM_TTL_MS, type ReplyRecord } from './boardMessages.js';
import { isOlder } from './boardVersion.js';

export type ReplyDecision =
  /** No reply in this thread yet (or a claim abandoned): claim it, then post. */
  | { kind: 'post'; takeOver?: ReplyRecord }
  /** The reply exists and shows an older version: edit it in place. */
  | { kind: 'edit'; reply: ReplyRecord }
  /** The reply shows this version or a newer one already (or is about to): nothing to do. */
  | { kind: 'skip'; reply: ReplyRecord }
  /** Another handler is posting it right now: try again once its claim is settled. */
  | { kind: 'wait'; retryAfterMs: number };

export function decideReply(
  existing: ReplyRecord | undefined,
  version: string,
  nowMs: number,
): ReplyDecision {
  if (existing === undefined) return { kind: 'post' };
  if (existing.ts === null) {
    const age = nowMs - existing.claimedAt;
    return age >= CLAIM_TTL_MS
      ? { kind: 'post', takeOver: existing }
      : { kind: 'wait', retryAfterMs: CLAIM_TTL_MS - age };
  }
  if (isOlder(version, existing.version)) return { kind: 'skip', reply: existing };
  if (version === existing.version && existing.shownVersion === existing.version) {
    return { kind: 'skip', reply: existing };
  }
  return { kind: 'edit', reply: existing };
}
