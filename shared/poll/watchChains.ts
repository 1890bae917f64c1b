// The AWS watchdog's use case, once a minute for every organization of the deployment: read each
// organization's pace and health (its poll state's small copy, shared/store/pollWatch.ts), restart each lost chain of ticks (lostChain.ts) with a tick due now, and judge each organization
// by the one overdue rule (shared/detect/overdue.ts), saying why in the words of `meal-notifier status`,
// and which ones have their token rejected.
// One watchdog for all, instead of a schedule and an alarm per organization, keeps the stack's size
// independent of the config's.
import type { OrganizationConfig } from '../config/configSchema.js';
import { organizationProblem, overdueOf } from '../operations/healthVerdict.js';
import { pollHealthOf } from '../operations/statusReport.js';
import { POLL_WATCH_BATCH, type PollWatch, type PollWatchStore } from '../store/pollWatch.js';
import { judgeChain } from './lostChain.js';

/**
 * Reads (of POLL_WATCH_BATCH organizations each), or ticks sent, at once: 1,000 organizations are 10 reads,
 * and a thousand lost chains (a first deployment) go out without a burst of 1,000 calls.
 */
export const WATCH_CONCURRENCY = 16;

export interface WatchDependencies {
  store: PollWatchStore;
  /** Sends the tick that starts the organization's chain again, due at `dueAt`. */
  restart(organizationId: string, dueAt: number): Promise<unknown>;
  clock: () => number;
}

export type WatchedOrganization = Pick<OrganizationConfig, 'id' | 'name' | 'pollIntervalSeconds'>;

export interface OverdueOrganization {
  organization: string;
  name: string;
  /** One line naming the organization: why it is overdue (as `status --stack` says it). */
  problem: string;
}

export interface WatchReport {
  checked: number;
  /** The organizations whose chain was restarted, and why it was lost. */
  restarted: { organization: string; why: string }[];
  /** Chains found lost that could not be restarted (the next run tries again), with the error. */
  restartFailed: { organization: string; why: string; error: unknown }[];
  /** Organizations whose poll state could not be read: counted as overdue, since nothing is known. */
  unreadable: { organization: string; error: unknown }[];
  overdue: OverdueOrganization[];
  /** Organizations whose token the API rejects now ("token rejected: put a new token"). */
  tokenRejected: { organization: string; name: string }[];
}

export async function watchChains(
  organizations: readonly WatchedOrganization[],
  deps: WatchDependencies,
): Promise<WatchReport> {
  const states = await readStates(organizations, deps.store);
  const nowMs = deps.clock();
  const report: WatchReport = {
    checked: organizations.length,
    restarted: [],
    restartFailed: [],
    unreadable: [],
    overdue: [],
    tokenRejected: [],
  };
  const lost: { organization: string; why: string }[] = [];
  organizations.forEach((organization, index) => {
    const read = states[index];
    if (read === undefined || 'error' in read) {
      report.unreadable.push({ organization: organization.id, error: read?.error });
      report.overdue.push({
        organization: organization.id,
        name: organization.name,
        problem: `${organization.name}: its poll state could not be read, so whether it is polled is not known`,
      });
      return;
    }
    const chain = judgeChain(read.state, nowMs);
    if (chain.lost) lost.push({ organization: organization.id, why: chain.why });
    const overdue = overdueProblem(organization, read.state, nowMs);
    if (overdue !== undefined) report.overdue.push(overdue);
    if (read.state !== undefined && read.state.health.tokenRejectedAt !== null) {
      report.tokenRejected.push({ organization: organization.id, name: organization.name });
    }
  });
  await restartChains(lost, nowMs, deps, report);
  return report;
}

/**
 * Every organization's pace and health, in config order, POLL_WATCH_BATCH to a read and a few reads at a
 * time; a batch that fails is read again one by one, and a failed read is kept as such.
 */
async function readStates(
  organizations: readonly WatchedOrganization[],
  store: WatchDependencies['store'],
): Promise<({ state: PollWatch | undefined } | { error: unknown })[]> {
  const batches: WatchedOrganization[][] = [];
  for (let start = 0; start < organizations.length; start += POLL_WATCH_BATCH) {
    batches.push(organizations.slice(start, start + POLL_WATCH_BATCH));
  }
  const read = await inPool(batches, (batch) =>
    store.loadPollWatches(batch.map(({ id }) => id)).then(
      (watches) => batch.map(({ id }) => ({ state: watches.get(id) })),
      // One organization's item unreadable must not blind the watchdog to the other 99: each is read alone.
      () => Promise.all(batch.map(({ id }) => readOne(store, id))),
    ),
  );
  return read.flat();
}

function readOne(
  store: WatchDependencies['store'],
  organizationId: string,
): Promise<{ state: PollWatch | undefined } | { error: unknown }> {
  return store.loadPollWatches([organizationId]).then(
    (watches) => ({ state: watches.get(organizationId) }),
    (error: unknown) => ({ error }),
  );
}

/** `work` on each item, WATCH_CONCURRENCY at a time, the results in the items' order. */
async function inPool<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) {
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(WATCH_CONCURRENCY, items.length) }, worker));
  return results;
}

function overdueProblem(
  organization: WatchedOrganization,
  state: PollWatch | undefined,
  nowMs: number,
): OverdueOrganization | undefined {
  const health = pollHealthOf(organization, state);
  if (!overdueOf(health, nowMs).overdue && health.lastSuccessAt !== null) return undefined;
  const problem = organizationProblem(health, nowMs, true);
  return problem === undefined
    ? undefined
    : { organization: organization.id, name: organization.name, problem };
}

async function restartChains(
  lost: readonly { organization: string; why: string }[],
  nowMs: number,
  deps: WatchDependencies,
  report: WatchReport,
): Promise<void> {
  const outcomes = await inPool(lost, (chain) =>
    deps.restart(chain.organization, nowMs).then(
      () => ({ chain }),
      (error: unknown) => ({ chain, error }),
    ),
  );
  for (const outcome of outcomes) {
    if ('error' in outcome) report.restartFailed.push({ ...outcome.chain, error: outcome.error });
    else report.restarted.push(outcome.chain);
  }
}
