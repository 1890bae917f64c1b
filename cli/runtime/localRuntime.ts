// Builds the local runner's adapters from a config file: the SQLite state file behind each local port
// (routing each new event to the subscribers whose filters match), one request budget per token shared by
// every organization using it, one API client per organization, and one sender per subscriber, the last two
// over undici. The runner keeps each organization's lease while it runs and gives it back as it closes; a
// lease left by a runner on this machine whose process has ended is taken over at once.
import { hostname } from 'node:os';
import { AdminApiClient, type AttemptReport } from '../../shared/api/adminApiClient.js';
import { RequestBudget } from '../../shared/api/requestBudget.js';
import { catchUpAfterMs } from '../../shared/config/catchUpAfter.js';
import { jsonPath } from '../../shared/config/configProblems.js';
import {
  type Config,
  isSlackAppSubscriber,
  type OrganizationConfig,
} from '../../shared/config/configSchema.js';
import { configProblemsIn, loadConfigDocument, loadConfigFile } from '../../shared/config/loadConfig.js';
import {
  EnvSecretResolver,
  findMissingSecrets,
  missingSecretProblem,
  type ResolvedSecrets,
  resolveSecrets,
} from '../../shared/config/secretResolver.js';
import { buildSender } from '../../shared/delivery/buildSender.js';
import type { DeliveryLedger } from '../../shared/delivery/deliveryLedger.js';
import type { DeliveryOutbox } from '../../shared/delivery/deliveryOutbox.js';
import type { DigestStore } from '../../shared/delivery/digest/digestStore.js';
import { highlightWordsOf } from '../../shared/delivery/highlightWordsOf.js';
import type { CatchUpSettings } from '../../shared/delivery/outboxDelivery.js';
import { routeEvent } from '../../shared/delivery/routeEvent.js';
import type { SenderTuning } from '../../shared/delivery/senderTuning.js';
import type { BoardMessages } from '../../shared/delivery/slack/board/boardMessages.js';
import { SubscriberSenders } from '../../shared/delivery/subscriberSenders.js';
import { createUndiciHttpClient } from '../../shared/http/undiciHttpClient.js';
import { holderGoneOnThisHost } from '../../shared/poll/holderGoneOnThisHost.js';
import { type LocalRun, localRunId } from '../../shared/poll/localRunId.js';
import { DEFAULT_LEASE_TERMS, type LeaseTerms } from '../../shared/poll/organizationLease.js';
import type { EventLookup } from '../../shared/store/eventLookup.js';
import { SqliteStateStore } from '../../shared/store/sqlite/sqliteStateStore.js';
import type { StateRetention } from '../../shared/store/stateRetention.js';
import type { StateStore } from '../../shared/store/stateStore.js';
import { subscriberProblem } from '../checkConfig/findSetupProblems.js';
import { DELIVERY_LEASE_KEY } from './deliveryLease.js';
import { processExists } from './processExists.js';
import { resolveStatePath } from './statePath.js';
import { stoppableSleep } from './stoppableSleep.js';

const PRUNE_EVERY_MS = 3_600_000;

/**
 * The ports the local commands and the runner use, each owned by the code that uses it and all served by
 * the one SQLite state file. A new kind of local record (the Slack board's message map) is one more port
 * here: its interface in shared/, an adapter over the same file, an in-memory fake and a conformance suite
 * in test/support/ (docs/architecture.md, "Ports and adapters").
 */
export interface LocalPorts {
  /** The poll cycle's store, and the event log the commands list and search. */
  store: StateStore;
  /** One logged event by id alone: replay, deliveries, the outbox tally. */
  eventLog: EventLookup;
  /** The delivery engine's outbox, and the ledger the operator's commands read and change. */
  outbox: DeliveryOutbox & DeliveryLedger;
  /** The event log as the digest ticker reads it, and where it records a digest. */
  digests: DigestStore;
  /** The kitchen board's message map (Slack app subscribers). */
  boardMessages: BoardMessages;
  /** What SQLite has no TTL for, forgotten now and then by the runner. */
  retention: StateRetention;
}

export interface LocalState extends LocalPorts {
  config: Config;
  configPath: string;
  /** Absolute path of the SQLite state file. */
  statePath: string;
  close(): Promise<void>;
}

export interface OrganizationRuntime {
  organization: OrganizationConfig;
  client: AdminApiClient;
}

export interface LocalRuntime extends LocalState {
  organizations: OrganizationRuntime[];
  /** Every enabled subscriber's sender, built and checked at start-up. */
  senders: SubscriberSenders;
  /** Who gets catch-ups instead of stale events, from the config. */
  catchUps: CatchUpSettings;
  /** Names this process in organization leases. */
  runId: string;
  /** Kept from the first cycle until close(), which gives each back. */
  lease: LeaseTerms;
  /** Removes expired snapshots and events, at most once an hour: SQLite has no TTL sweeper. */
  pruneIfDue(): Promise<void>;
}

export interface LocalRuntimeOptions {
  env?: NodeJS.ProcessEnv;
  onAttempt?: (organization: OrganizationConfig, attempt: AttemptReport) => void;
  clock?: () => number;
  /**
   * The long-running runner's stop signal: once aborted, waits for request budget and retry backoffs
   * end at once (the request fails), so shutdown is never held up by a wait of up to a minute.
   */
  stop?: AbortSignal;
  /** Told of what start-up works around, e.g. a signing secret of a rotation not set yet. */
  onWarning?: (message: string) => void;
  senderTuning?: SenderTuning;
}

/** Where a config keeps its SQLite state file: relative to the config file, whatever the working directory. */
export function statePathOf(config: Config, configPath: string): string {
  return resolveStatePath(config.state.path, configPath);
}

/** The config and the state file alone: enough for commands that only read the state. */
export async function openLocalState(
  configPath: string,
  clock: () => number = Date.now,
): Promise<LocalState> {
  const config = await loadConfigFile(configPath);
  const statePath = statePathOf(config, configPath);
  const store = new SqliteStateStore({
    path: statePath,
    clock,
    routeEvent: (event) =>
      // A digest's types are held for it, which the runner builds from the log once the period ends.
      routeEvent(config.subscribers, event).map((subscriber) => subscriber.id),
  });
  return { config, configPath, statePath, ...localPortsOf(store), close: async () => store.close() };
}

/** The local ports, as one SQLite state file serves them. */
export function localPortsOf(store: SqliteStateStore): LocalPorts {
  return {
    store,
    eventLog: store,
    outbox: store.outbox,
    digests: store,
    retention: store,
    boardMessages: store.boardMessages,
  };
}

export async function openLocalRuntime(
  configPath: string,
  options: LocalRuntimeOptions = {},
): Promise<LocalRuntime> {
  const env = options.env ?? process.env;
  const clock = options.clock ?? Date.now;
  const { config, json } = await loadConfigDocument(configPath, { env });
  const missing = findMissingSecrets(config, env);
  if (missing.length > 0) throw configProblemsIn(configPath, json, missing.map(missingSecretProblem));
  const resolver = new EnvSecretResolver(env);
  const tokens = config.organizations.map((organization, index) => ({
    path: jsonPath(['organizations', index, 'token']),
    ref: organization.token,
  }));
  const secrets = await resolveSecrets(config, resolver, tokens);
  const state = await openLocalState(configPath, clock);
  const senders = new SubscriberSenders({
    subscribers: config.subscribers,
    smtp: config.smtp,
    secrets: resolver,
    build: buildSender,
    highlightWords: highlightWordsOf(config.organizations),
    // The board's message map lives in the state file, so a restart edits the messages posted before it.
    tuning: {
      httpClient: createUndiciHttpClient,
      boardMessages: state.boardMessages,
      ...options.senderTuning,
    },
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
  });
  const refused = await senders.prepare();
  if (refused.length > 0) {
    await senders.close();
    await state.close();
    throw configProblemsIn(
      configPath,
      json,
      refused.map((error) => subscriberProblem(config, error)),
    );
  }
  const sleep = options.stop ? stoppableSleep(options.stop) : undefined;
  const organizations = buildClients(config, secrets, state.store, {
    clock,
    sleep,
    onAttempt: options.onAttempt,
  });
  let prunedAt = Number.NEGATIVE_INFINITY;
  const run: LocalRun = { host: hostname(), pid: process.pid, startedAt: clock() };
  const runId = localRunId(run);
  const isGone = holderGoneOnThisHost({
    host: run.host,
    pid: run.pid,
    startedAt: Math.floor(performance.timeOrigin),
    exists: (pid) => processExists(pid),
  });
  return {
    ...state,
    organizations,
    senders,
    catchUps: catchUpSettingsOf(config),
    runId,
    lease: { ...DEFAULT_LEASE_TERMS, heldFor: 'run', isGone },
    pruneIfDue: async () => {
      if (clock() - prunedAt < PRUNE_EVERY_MS) return;
      prunedAt = clock();
      await state.retention.prune(prunedAt);
    },
    close: async () => {
      // Every lease this run holds goes back, so that a runner started next polls at once. One that could
      // not be (the state file failing) is taken over by the next runner on this host, or runs out.
      await Promise.allSettled(
        [...organizations.map(({ organization }) => organization.id), DELIVERY_LEASE_KEY].map((key) =>
          state.store.releaseLease(key, runId),
        ),
      );
      await Promise.all([...organizations.map(({ client }) => client.close()), senders.close()]);
      await state.close();
    },
  };
}

/** Each enabled subscriber's catch-up threshold, each organization's zone and words, as the config has them. */
export function catchUpSettingsOf(config: Config): CatchUpSettings {
  const subscribers = new Map(config.subscribers.filter(({ enabled }) => enabled).map((s) => [s.id, s]));
  const zones = new Map(config.organizations.map(({ id, timeZone }) => [id.toLowerCase(), timeZone]));
  return {
    catchUpAfterMs: (subscriberId) => {
      const subscriber = subscribers.get(subscriberId);
      // The kitchen's board is never folded into a catch-up: its sender edits the boards and replies
      // instead, and says the outage in one line (docs/delivery.md).
      if (subscriber === undefined || isSlackAppSubscriber(subscriber)) return undefined;
      return catchUpAfterMs(subscriber);
    },
    timeZoneOf: (organizationId) => zones.get(organizationId.toLowerCase()),
    highlightWordsOf: highlightWordsOf(config.organizations),
  };
}

interface ClientOptions {
  clock: () => number;
  sleep: ((ms: number) => Promise<void>) | undefined;
  onAttempt: LocalRuntimeOptions['onAttempt'];
}

function buildClients(
  config: Config,
  secrets: ResolvedSecrets,
  store: StateStore,
  { clock, sleep, onAttempt }: ClientOptions,
): OrganizationRuntime[] {
  const budgets = new Map<string, RequestBudget>();
  return config.organizations.map((organization): OrganizationRuntime => {
    const token = secrets.get(organization.token);
    let budget = budgets.get(token);
    if (!budget) {
      budget = new RequestBudget({
        token,
        requestsPerMinute: config.api.requestsPerMinute,
        store: store.budgetCounters,
        clock,
        ...(sleep ? { sleep } : {}),
      });
      budgets.set(token, budget);
    }
    const client = new AdminApiClient({
      baseUrl: config.api.baseUrl,
      organizationId: organization.id,
      organizationName: organization.name,
      token,
      budget,
      httpClient: createUndiciHttpClient,
      clock,
      ...(sleep ? { sleep } : {}),
      ...(onAttempt ? { onAttempt: (attempt: AttemptReport) => onAttempt(organization, attempt) } : {}),
    });
    return { organization, client };
  });
}
