// What every phase of one organization's cycle reads and none writes: the organization as configured, the
// ports, and the facts fixed when the cycle began (its start, today, the watched window).
import type { OrderStatus } from '../api/schemas.js';
import { windowDates } from '../detect/planDetection.js';
import type { StateStore } from '../store/stateStore.js';
import { calendarDateIn } from '../time/calendarDate.js';
import type { CycleCleanupError } from './errors.js';
import type { OrdersSource } from './ordersSource.js';
import type { LeaseTerms } from './organizationLease.js';

export interface PolledOrganization {
  id: string;
  name: string;
  timeZone: string;
  window: { daysBack: number; daysAhead: number };
  /** Statuses whose transitions are announced. */
  statuses: readonly OrderStatus[];
  establishments?: readonly string[] | undefined;
  emitExisting: boolean;
  /** The shortest gap between two cycles. */
  pollIntervalSeconds: number;
  /** How long a full sweep of the terminal listings should take. */
  sweepIntervalSeconds: number;
  /** `auto` follows the establishments' closing times and working days (planCadence). @default 'auto' */
  cadence?: 'auto' | 'fixed' | undefined;
  /** With `auto`, the gap on days no establishment works. @default 15 */
  coldSweepMinutes?: number | undefined;
  /** Words that flag a note in the prep summary (noteHighlights.ts). @default DEFAULT_HIGHLIGHT_WORDS */
  highlightWords?: readonly string[] | undefined;
}

export interface PollDependencies {
  api: OrdersSource;
  store: StateStore;
  clock: () => number;
  /** Names this run in the lease. */
  runId: string;
  /** CloudEvents `source` prefix: the API base URL. */
  baseUrl: string;
  /** Organizations sharing this organization's token: its share of the budget. @default 1 */
  organizationsOnToken?: number;
  /**
   * The least interval between this organization's cycles, from its size (AWS: awsIntervalSeconds, a small
   * organization at the default polled more often). @default the configured pollIntervalSeconds
   */
  leastIntervalSeconds?: (input: {
    pollIntervalSeconds: number;
    pendingPages: number;
    averageLookups: number;
    organizationsOnToken: number;
    usablePerMinute: number;
  }) => number;
  /** How this run holds the organization's lease. @default DEFAULT_LEASE_TERMS: for the cycle, 5 minutes */
  lease?: LeaseTerms;
  /** Days a snapshot outlives its pickup date's exit from the window. @default 2 */
  snapshotGraceDays?: number;
  /**
   * A failed listing's line in `failures` (and so the poll state's last error), naming the organization.
   * @default the error's own message
   */
  describeFailure?: (error: Error) => string;
  /**
   * The config's catch-up thresholds (ms), when the cycle records catch-ups itself (AWS: recordCatchUps).
   * Locally the outbox composes them per subscriber. @default none
   */
  catchUpAfter?: readonly number[];
  /**
   * Told of a step after the cycle that failed (the budget or the lease not given back, a failed cycle's
   * health not recorded, the budget left not read), with its own cause: the cycle's error is still what
   * the cycle throws, and a cycle that saved still reports. The runtime logs it.
   */
  onCleanupFailure: (failure: CycleCleanupError) => void;
}

export interface CycleContext {
  readonly organization: PolledOrganization;
  readonly deps: PollDependencies;
  /** When the cycle began (epoch ms): its walks, coverage and events are dated by it. */
  readonly startedAt: number;
  /** The organization's calendar date when the cycle began. */
  readonly today: string;
  /** The pickup dates watched this cycle. */
  readonly window: { readonly startDate: string; readonly endDate: string };
  /** The events' CloudEvents `source`. */
  readonly source: string;
}

export function cycleContext(
  organization: PolledOrganization,
  deps: PollDependencies,
  startedAt: number,
): CycleContext {
  const today = calendarDateIn(organization.timeZone, startedAt);
  return {
    organization,
    deps,
    startedAt,
    today,
    window: windowDates(today, organization.window),
    source: `${deps.baseUrl.replace(/\/+$/, '')}/organizations/${organization.id}`,
  };
}
