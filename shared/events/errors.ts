// Typed failures of building an event: a caller handed the builder figures that would make a wrong event.
import { EXIT_FAILURE, type ExitCode, NotifierError } from '../errors/notifierError.js';

/** A prep summary's inputs do not describe one establishment's pickup date; nothing is built. */
export class PrepSummaryInputError extends NotifierError {
  /** The establishment and pickup date the summary was for. */
  readonly establishmentUuid: string;
  readonly pickupDate: string;

  constructor(establishmentUuid: string, pickupDate: string, problem: string, options?: ErrorOptions) {
    super(`prep summary for establishment ${establishmentUuid} on ${pickupDate}: ${problem}`, options);
    this.establishmentUuid = establishmentUuid;
    this.pickupDate = pickupDate;
  }

  /** The planner handed it inconsistent figures: a bug in the notifier, not a mistake a user can fix. */
  override get exitCode(): ExitCode {
    return EXIT_FAILURE;
  }

  override get userFacing(): boolean {
    return false;
  }
}
