// What the poller refuses: an event that is not the schedule's, or an organization it was not deployed for.

export class InvalidPollerEventError extends Error {
  constructor() {
    super(`poller event must be {"organizationId": "<uuid>"}, as the stack's schedules send it`);
    this.name = 'InvalidPollerEventError';
  }
}

export class UnknownOrganizationError extends Error {
  constructor(organizationId: string) {
    super(`organization ${organizationId} is not in this deployment's config; redeploy after changing it`);
    this.name = 'UnknownOrganizationError';
  }
}
