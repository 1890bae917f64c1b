// Typed failures of building an event: a caller handed the builder figures that would make a wrong event.

/** A prep summary's inputs do not describe one establishment's pickup date; nothing is built. */
export class PrepSummaryInputError extends Error {
  /** The establishment and pickup date the summary was for. */
  readonly establishmentUuid: string;
  readonly pickupDate: string;

  constructor(establishmentUuid: string, pickupDate: string, problem: string, options?: ErrorOptions) {
    super(`prep summary for establishment ${establishmentUuid} on ${pickupDate}: ${problem}`, options);
    this.name = new.target.name;
    this.establishmentUuid = establishmentUuid;
    this.pickupDate = pickupDate;
  }
}
