// One trigger of the poller, the schedule's or a tick: the organization's cycle if it is due
// (pollWhenDue), its log line (and a warning with its listing problems) and the deployment's ListingProblems
// metric, then the one tick that triggers its next cycle, sent even when telling the cycle failed. No metric
// per organization: the watchdog (functions/watchdog) judges every organization overdue or not from the
// state table. An organization whose token secret has no value yet gets a failed cycle: one line naming the
// secret and the command that sets it, never a function error.

import type { Logger } from '@aws-lambda-powertools/logger';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import type { Config, OrganizationConfig } from '../../shared/config/configSchema.js';
import { SecretNotSetError } from '../../shared/config/errors.js';
import { type ApiTarget, apiTargetOf, describeApiFailure } from '../../shared/config/explainApiFailure.js';
import { AWS_LEASE_TERMS, awsIntervalSeconds } from '../../shared/contracts/awsPollSettings.js';
import type { OrdersSource } from '../../shared/poll/ordersSource.js';
import { organizationsOnToken } from '../../shared/poll/organizationsOnToken.js';
import type { PollReport } from '../../shared/poll/pollReport.js';
import { pollWhenDue } from '../../shared/poll/pollWhenDue.js';
import type { StateStore } from '../../shared/store/stateStore.js';
import type { TickSender } from '../shared/tickQueue.js';
import { UnknownOrganizationError } from './errors.js';
import type { PollTrigger } from './pollerEvent.js';
import { type PollSummary, publishPollMetrics, summarizePoll } from './pollSummary.js';

export interface TriggerDependencies {
  config: Config;
  /** The organizations that set no interval, given the AWS default. @default none: every interval as set */
  awsDefaultIntervals?: ReadonlySet<string>;
  /** The organization's Admin API client (OrganizationClients.clientFor). */
  clientFor(organization: OrganizationConfig): Promise<OrdersSource>;
  /**
   * The identity of the organization's token, the key its budget is counted under
   * (OrganizationClients.tokenIdentityOf); never throws for a token that cannot be read.
   */
  tokenIdentityOf(organization: OrganizationConfig): Promise<string>;
  store: StateStore;
  ticks: TickSender;
  logger: Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;
  metrics: Metrics;
  clock: () => number;
  /** Names this run in the organization's lease. */
  runId: string;
  /** The config's catch-up thresholds (ms): each cycle records catch-ups of what was stale for them. */
  catchUpAfter?: readonly number[];
  /** The Secrets Manager secret holding the organization's token by its variable's name, for the failure line to name. */
  tokensSecretOf?: (organization: OrganizationConfig) => string;
}

/** Listing problems logged one by one per cycle; past these, counted. */
const MAX_LOGGED_PROBLEMS = 50;

export type TriggerResult =
  | { organization: string; outcome: 'not_due'; nextPollAt: string }
  /** The token's secret has no value: no tick, the watchdog restarts the chain at its next run. */
  | { organization: string; outcome: 'failed'; ok: false; reason: string; nextTickDelaySeconds: null }
  | (PollSummary & {
      /** The next tick's delay; null when none was sent (the run holding the lease sends it). */
      nextTickDelaySeconds: number | null;
    });

/**
 * @throws UnknownOrganizationError for an organization the deployment does not poll; whatever else stops
 *   a cycle before it reports (Secrets Manager refusing, DynamoDB, a bug): no tick is sent then, the
 *   watchdog restarts the chain; and what failed in telling a cycle that ran (its line, its metrics), only once
 *   its next tick is sent
 */
export async function pollOnTrigger(trigger: PollTrigger, deps: TriggerDependencies): Promise<TriggerResult> {
  const organization = deps.config.organizations.find(({ id }) => id === trigger.organizationId);
  if (!organization) throw new UnknownOrganizationError(trigger.organizationId);
  const startedAt = deps.clock();
  const context = {
    organization: organization.id,
    trigger: trigger.source,
    // How late the queue delivered a tick: SQS delays are whole seconds, Lambda's poller adds its own.
    ...(trigger.source === 'tick' ? { tickLateMs: startedAt - trigger.dueAt } : {}),
  };
  let api: OrdersSource;
  try {
    api = await deps.clientFor(organization);
  } catch (error) {
    if (!(error instanceof SecretNotSetError)) throw error;
    // The state of a first deployment until the tokens are put: expected, and said once per trigger in a
    // line the operator can act on, not a stack trace and a function error that Lambda would count.
    deps.logger.error('poll cycle failed: organization token not set', {
      ...context,
      secret: error.secretName,
      reason: error.message,
    });
    return {
      organization: organization.id,
      outcome: 'failed',
      ok: false,
      reason: error.message,
      nextTickDelaySeconds: null,
    };
  }
  const due = await pollWhenDue(organization, {
    api,
    store: deps.store,
    clock: deps.clock,
    runId: deps.runId,
    lease: AWS_LEASE_TERMS,
    baseUrl: deps.config.api.baseUrl,
    organizationsOnToken: await sharingToken(organization, deps),
    // At the AWS default interval a small organization is polled more often (awsPollSettings.ts); an
    // interval the config sets is kept as set.
    leastIntervalSeconds: (input) =>
      awsIntervalSeconds({
        ...input,
        intervalIsAwsDefault: deps.awsDefaultIntervals?.has(organization.id) ?? false,
      }),
    // The words the local runner and check-config --ping use: a rejected token says what to fix, here
    // the token's value in the secret, not an environment variable.
    describeFailure: (error) => describeApiFailure(error, awsApiTarget(deps, organization)),
    // On AWS the cycle records the catch-ups; the publisher keeps them and the stale events apart.
    ...(deps.catchUpAfter === undefined ? {} : { catchUpAfter: deps.catchUpAfter }),
    // Logged with its cause, Powertools' error fields: the cycle's line (or error) is what it was.
    onCleanupFailure: (failure) =>
      deps.logger.error('poll cycle cleanup failed', { ...context, step: failure.step, error: failure }),
  });
  if (due.outcome === 'not_due') {
    // An early or duplicate trigger: the cycle that set this due time sent the tick for it.
    const nextPollAt = new Date(due.nextPollAt).toISOString();
    deps.logger.debug('poll not due', { ...context, nextPollAt });
    return { organization: organization.id, outcome: 'not_due', nextPollAt };
  }

  const { report } = due;
  const summary = summarizePoll(report);
  // The next tick goes out whatever becomes of the cycle's line and metrics: a chain that stopped for want
  // of a log line would leave the organization to the minute schedule. What failed is thrown after it.
  const told = await reportCycle(report, summary, context, deps).then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  // A skipped cycle found another run holding the lease; that run sends the next tick, and a second one
  // from here would start a second chain.
  const nextTickDelaySeconds =
    report.outcome === 'skipped'
      ? null
      : await deps.ticks.send({ organizationId: organization.id, dueAt: report.nextPollAt }, deps.clock());
  if (told) throw told.error;
  return { ...summary, nextTickDelaySeconds };
}

/** The cycle's log line, its listing problems and its metric. */
async function reportCycle(
  report: PollReport,
  summary: PollSummary,
  context: Record<string, unknown>,
  deps: TriggerDependencies,
): Promise<void> {
  // API failures are expected weather, not function errors: they go to the log (the watchdog reads the
  // organization's health from the state table).
  const line = { ...context, ...summary };
  if (report.outcome === 'polled' && !report.ok) deps.logger.warn('poll cycle failed', line);
  // Another invocation took the organization over while this one was frozen: its reason says so.
  else if (report.leaseLost) deps.logger.warn('poll cycle lease lost', line);
  else deps.logger.info(report.outcome === 'polled' ? 'poll cycle' : `poll cycle ${report.outcome}`, line);
  if (report.problems.length > 0) {
    // Each names its listing, page and order uuid, never a record's values; a few dozen tell the story, and
    // the count says how many more there were.
    deps.logger.warn('listing problems', {
      ...context,
      problems: report.problems.slice(0, MAX_LOGGED_PROBLEMS),
      more: Math.max(0, report.problems.length - MAX_LOGGED_PROBLEMS),
    });
  }
  publishPollMetrics(deps.metrics, report);
}

/**
 * The organizations of the deployment sharing `organization`'s token, itself included: the one rule, by token
 * identity as the budget is keyed, so two secret references holding one token count as one token.
 */
async function sharingToken(
  organization: OrganizationConfig,
  deps: Pick<TriggerDependencies, 'config' | 'tokenIdentityOf'>,
): Promise<number> {
  const organizations = deps.config.organizations;
  const identities = await Promise.all(organizations.map((other) => deps.tokenIdentityOf(other)));
  const own = identities[organizations.findIndex(({ id }) => id === organization.id)];
  return own === undefined ? 1 : organizationsOnToken(identities, own);
}

/** The organization's connection as the failure line names it on AWS: its token is a value of a secret. */
function awsApiTarget(deps: TriggerDependencies, organization: OrganizationConfig): ApiTarget {
  const target = apiTargetOf(deps.config, organization.id);
  if (deps.tokensSecretOf === undefined) return target;
  return {
    ...target,
    token: `the ${organization.token.env} value of secret ${deps.tokensSecretOf(organization)}`,
  };
}
