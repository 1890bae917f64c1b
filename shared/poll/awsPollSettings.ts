// How the AWS poller spends the budget, shared by its handler and the bench that measures it.

/**
 * How long a Lambda cycle may wait for the token's budget before deferring: a few seconds let a cycle due
 * just as another organization's reservation fills the window go ahead instead of skipping its turn.
 */
export const AWS_BUDGET_WAIT_MS = 10_000;
