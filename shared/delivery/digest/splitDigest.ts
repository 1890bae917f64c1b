// How a built digest goes out (pure; both runtimes decide it here): whole when it fits every size limit
// the runtime names (on AWS the SNS publish and the DynamoDB item that claims it, locally the e-mail),
// else as numbered parts, each a consecutive run of the period's events that fits them all. A digest
// needing more than DIGEST_MAX_PARTS parts is cut there, and its last part says how many events no part
// lists. Part n has an id of its own, the same on every run (digestEventId), so a retry never sends it twice.
import type { DigestEvent } from '../../events/digestEvent.js';

/** Past this many parts a digest is cut: ten full messages are more than anyone reads for one period. */
export const DIGEST_MAX_PARTS = 10;

/** One limit a digest message must fit, in bytes, as the service that enforces it counts them. */
export interface DigestSizeLimit {
  /** What is limited, for the reader of a report: "SNS message". */
  name: string;
  maxBytes: number;
  sizeOf(message: DigestEvent): number;
}

export interface SplitDigestOptions {
  limits: readonly DigestSizeLimit[];
  /** The id of part `number` (1-based); part 1's must be the digest's own id. */
  partId: (number: number) => string;
  /** @default DIGEST_MAX_PARTS */
  maxParts?: number;
}

/** Whether `message` fits every limit. */
export function fitsDigestLimits(message: DigestEvent, limits: readonly DigestSizeLimit[]): boolean {
  return limits.every((limit) => limit.sizeOf(message) <= limit.maxBytes);
}

/**
 * The messages the digest goes out as, in order: the digest itself when it fits, else its parts. A part
 * holds at least one event even when one alone is over a limit (its send then fails, reported, and the
 * other parts and digests still go).
 */
export function splitDigest(digest: DigestEvent, options: SplitDigestOptions): DigestEvent[] {
  const maxParts = Math.max(1, options.maxParts ?? DIGEST_MAX_PARTS);
  if (fitsDigestLimits(digest, options.limits)) return [digest];
  const events = digest.data.events;
  const total = events.length;
  // Parts are measured as the largest numbers they could carry (part and count digits, the cut line),
  // so filling in the real ones afterwards never makes a part bigger than it was measured.
  const measured = (start: number, count: number) =>
    partOf(digest, options.partId(1), start, count, { number: maxParts, of: maxParts, leftOut: total });
  // Where to start looking: the share of the events the tightest limit would take if each were as big.
  const share = Math.min(...options.limits.map((limit) => limit.maxBytes / limit.sizeOf(digest)));
  const guess = Math.max(1, Math.ceil(total * share * 1.25));
  const runs: { start: number; count: number }[] = [];
  let start = 0;
  while (start < total && runs.length < maxParts) {
    const count = largestFitting(total - start, guess, (count) =>
      fitsDigestLimits(measured(start, count), options.limits),
    );
    runs.push({ start, count });
    start += count;
  }
  const leftOut = total - start;
  return runs.map((run, index) =>
    partOf(digest, options.partId(index + 1), run.start, run.count, {
      number: index + 1,
      of: runs.length,
      leftOut: index === runs.length - 1 ? leftOut : 0,
    }),
  );
}

function partOf(
  digest: DigestEvent,
  id: string,
  start: number,
  count: number,
  part: { number: number; of: number; leftOut: number },
): DigestEvent {
  return {
    ...digest,
    id,
    data: {
      ...digest.data,
      events: digest.data.events.slice(start, start + count),
      part: { number: part.number, of: part.of, first_event: start + 1, left_out: part.leftOut },
    },
  };
}

/**
 * The most of `available` (at least 1) for which `fits` holds, a part only growing as events are added:
 * searched below `guess` first, and above it only when the guess fits (events of uneven size).
 */
function largestFitting(available: number, guess: number, fits: (count: number) => boolean): number {
  let low = 1;
  let high = available;
  if (guess < available) {
    if (fits(guess)) low = guess;
    else high = guess - 1;
  }
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}
