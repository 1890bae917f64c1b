// What the poller refuses: an event that is neither the schedule's nor the tick queue's, or an organization
// it was not deployed for.
import { FixByHandError } from '../../shared/errors/fixByHandError.js';

/** Someone invoked it by hand with another payload: only sending the right one helps. */
export class InvalidPollerEventError extends FixByHandError {
  constructor() {
    super(
      `poller event must be {"organizationId": "<uuid>"}, as the stack's schedules send it, or an SQS batch of ticks from its tick queue`,
    );
  }
}

export class UnknownOrganizationError extends FixByHandError {
  constructor(organizationId: string) {
    super(`organization ${organizationId} is not in this deployment's config; redeploy after changing it`);
  }
}
