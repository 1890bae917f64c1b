// What the poller refuses: an event that is neither the schedule's nor the tick queue's, or an organization
// it was not deployed for.

export class InvalidPollerEventError extends Error {
  constructor() {
    super(
      `poller event must be {"organizationId": "<uuid>"}, as the stack's schedules send it, or an SQS batch of ticks from its tick queue`,
    );
    this.name = 'InvalidPollerEventError';
  }
}

export class UnknownOrganizationError extends Error {
  constructor(organizationId: string) {
    super(`organization ${organizationId} is not in this deployment's config; redeploy after changing it`);
    this.name = 'UnknownOrganizationError';
  }
}
