// How the AWS poller spends the budget and how often it polls, shared by its handler, the stack and the
// bench that measures them.

/**
 * How long a Lambda cycle may wait for the token's budget before deferring: a few seconds let a cycle due
 * just as another organization's reservation fills the window go ahead instead of skipping its turn.
 */
export const AWS_BUDGET_WAIT_MS = 10_000;

/**
 * An organization's `pollIntervalSeconds` on AWS when its config does not set one (the local runner's
 * default is 10 s). On AWS every cycle is billed: a Lambda invocation waiting on the API, a DynamoDB Query
 * of every snapshot, a tick; a cycle a minute is what the README's cost section prices. A config that sets
 * the interval gets it, down to what the budget allows.
 */
export const AWS_DEFAULT_POLL_INTERVAL_SECONDS = 60;
