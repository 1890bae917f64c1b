// What the poller refuses: an event that is neither the schedule's nor the tick queue's, or an organization
// it was not deployed for.
import { EXIT_USAGE, type ExitCode, NotifierError } from '../../shared/errors/notifierError.js';

export class InvalidPollerEventError extends NotifierError {
  constructor() {
    super(
      `poller event must be {"organizationId": "<uuid>"}, as the stack's schedules send it, or an SQS batch of ticks from its tick queue`,
    );
  }

  /** Someone invoked it by hand with another payload: only sending the right one helps. */
  override get exitCode(): ExitCode {
    return EXIT_USAGE;
  }

  override get userFacing(): boolean {
    return true;
  }
}

export class UnknownOrganizationError extends NotifierError {
  constructor(organizationId: string) {
    super(`organization ${organizationId} is not in this deployment's config; redeploy after changing it`);
  }

  override get exitCode(): ExitCode {
    return EXIT_USAGE;
  }

  override get userFacing(): boolean {
    return true;
  }
}
