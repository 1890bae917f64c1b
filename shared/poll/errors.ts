// Typed failures of a poll cycle that no phase turns into a failure line of its report: a bug met in a
// phase, which fails the cycle as a bug; a step after the cycle (giving back the budget or the lease,
// recording a failed cycle's health, reading the budget left) that failed, which is told on its own and
// never takes the place of the cycle's own error or report; and a listing too large to walk whole, which
// the report tells.
import { FixByHandError } from '../errors/fixByHandError.js';
import { InternalError } from '../errors/internalError.js';
import { TransientError } from '../errors/transientError.js';

/**
 * What a phase met that no Admin API or transport failure explains (a TypeError, a RangeError, …): a bug,
 * shown with its stack and "please report it", never a listing failure. `cause` is what was thrown.
 */
export class UnexpectedCycleError extends InternalError {
  /** The organization whose cycle met it, by name. */
  readonly organization: string;
  /** Where in the cycle, e.g. `listing pending:2026-03-10..2026-03-17`. */
  readonly where: string;

  constructor(organization: string, where: string, cause: unknown) {
    super(`${organization}: ${where}: unexpected ${describeThrown(cause)}`, { cause });
    this.organization = organization;
    this.where = where;
  }
}

/** What a cycle does after its phases, each of which may fail on its own. */
export type CleanupStep =
  | 'release the request budget'
  | "record the failed cycle's health"
  | 'give back the lease'
  | 'renew the lease'
  | 'read the request budget left';

/**
 * A step after the cycle failed (the store or the budget's counter, mostly). Told through the cycle's
 * `onCleanupFailure` port with its own cause, while the cycle's error (or its report) stands.
 */
export class CycleCleanupError extends TransientError {
  readonly organization: string;
  readonly step: CleanupStep;

  constructor(organization: string, step: CleanupStep, cause: unknown) {
    super(`${organization}: after the cycle, could not ${step}: ${describeThrown(cause)}`, { cause });
    this.organization = organization;
    this.step = step;
  }
}

/** A thrown value in a few words: its class and message when it is an Error; never an inspected object. */
function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error) return `${thrown.name}: ${thrown.message}`;
  return String(thrown);
}

/**
 * A listing no walk can finish whole: it holds more pages than the token may ask in a minute, and a whole
 * walk's pages are reserved before its second goes out (one spread over minutes is one the world moves
 * under). Waiting cannot cure it; a smaller listing can. A pending listing is read a page a cycle, not
 * walked; a date of a terminal listing is left out of the sweep's baseline, and swept page by page after it.
 */
export class ListingTooLargeError extends FixByHandError {
  readonly organization: string;
  readonly listing: string;
  readonly pages: number;

  /**
   * `room`: the most pages a walk of it could be given, the token's `usablePerMinute` less what every cycle
   * needs first (pending's pages and look-ups, for the sweep); all of it when not given.
   */
  constructor(
    organization: string,
    listing: string,
    pages: number,
    limits: { usablePerMinute: number; room?: number },
    purpose: 'detect' | 'sweep',
  ) {
    const most =
      limits.room !== undefined && limits.room < limits.usablePerMinute
        ? `the ${limits.room} of the token's ${limits.usablePerMinute} requests a minute that pending's pages and look-ups leave`
        : `the ${limits.usablePerMinute} requests a minute the token may make`;
    const consequence =
      purpose === 'detect'
        ? 'so no walk of it can finish and its orders are not watched'
        : 'so the baseline skips it: the passes after it read it page by page, and an order archived from it before then may go untold';
    super(
      `${organization}: listing ${listing} holds ${pages} pages, more than ${most}, ${consequence}: list the organization's establishments apart ("establishments" in its config) to make each listing smaller`,
    );
    this.organization = organization;
    this.listing = listing;
    this.pages = pages;
  }
}
