// Typed failures of building an event: a caller handed the builder figures that would make a wrong event.
import { InternalError } from '../errors/internalError.js';

/**
 * A prep summary's inputs do not describe one establishment's pickup date; nothing is built. The planner
 * handed it inconsistent figures: a bug in the notifier, not a mistake a user can fix.
 */
export class PrepSummaryInputError extends InternalError {
  /** The establishment and pickup date the summary was for. */
  readonly establishmentUuid: string;
  readonly pickupDate: string;

  constructor(establishmentUuid: string, pickupDate: string, problem: string, options?: ErrorOptions) {
    super(`prep summary for establishment ${establishmentUuid} on ${pickupDate}: ${problem}`, options);
    this.establishmentUuid = establishmentUuid;
    this.pickupDate = pickupDate;
  }
}

/**
 * A prep_changed's inputs would make a wrong event (no order behind it, a delta that changes nothing, …);
 * nothing is built. A bug in the planner, not a mistake a user can fix.
 */
export class PrepChangedInputError extends InternalError {
  readonly establishmentUuid: string;
  readonly pickupDate: string;

  constructor(establishmentUuid: string, pickupDate: string, problem: string, options?: ErrorOptions) {
    super(`prep changes for establishment ${establishmentUuid} on ${pickupDate}: ${problem}`, options);
    this.establishmentUuid = establishmentUuid;
    this.pickupDate = pickupDate;
  }
}
