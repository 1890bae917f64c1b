// `meal-notifier events`: the recorded events, newest first, filtered by age, type and order, each with what
// became of it per subscriber, from the local state file (its event log and delivery outbox). With
// `--stack NAME`, from a deployed stack's state table, where no delivery is recorded per event.
import { Command } from 'commander';
import type { Config } from '../../shared/config/configSchema.js';
import { loadConfigFile } from '../../shared/config/loadConfig.js';
import { EVENT_TYPES, type EventType } from '../../shared/events/notifierEvent.js';
import {
  findRecentEvents,
  type ListedEvent,
  listedEvent,
  outboxDelivery,
  routedDeliveries,
  type SubscriberDelivery,
} from '../../shared/operations/eventHistory.js';
import type { EventQuery } from '../../shared/store/eventQuery.js';
import { humanDuration } from '../../shared/time/humanDuration.js';
import {
  onDeployedStack,
  requireStackFor,
  type StackOptions,
  withStackOptions,
} from '../aws/stackOptions.js';
import { CliUsageError } from '../errors.js';
import { eventTypesFlag } from '../eventTypesFlag.js';
import { integerFlag, STACK_CONFIG, withConfigOption } from '../flags.js';
import { formatEventsTable } from '../output/eventsTable.js';
import { stderrSink, stdoutSink } from '../output/outputSink.js';
import { outputWidth } from '../output/outputWidth.js';
import { parseSince } from '../parseSince.js';
import { openLocalState, statePathOf } from '../runtime/localRuntime.js';
import { stateFileExists } from '../status/collectStatus.js';

const DEFAULT_LIMIT = '50';

interface EventsOptions extends StackOptions {
  config: string;
  since?: string;
  type?: string[];
  order?: string;
  limit: string;
  json?: boolean;
}

interface Listing {
  events: ListedEvent[];
  more: boolean;
}

export function eventsCommand(): Command {
  return withStackOptions(
    withConfigOption(
      new Command('events').description(
        'List recorded events, newest first, with what became of each one per subscriber',
      ),
      STACK_CONFIG,
    )
      .option(
        '--since <time>',
        'only events recorded since TIME: 2026-11-22T08:00:00Z, 2026-11-22, or an age: 30s, 90m, 2h, 1h30m, 2d',
      )
      .option(
        '--type <types>',
        `only these types: ${EVENT_TYPES.join(', ')} (short forms such as canceled; repeat it or give a comma list)`,
        (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
      )
      .option('--order <order>', "only this order's events, by reference (NS-1031) or uuid")
      .option('--limit <n>', 'at most this many events, the newest', DEFAULT_LIMIT)
      .option('--json', 'print one JSON array on stdout, times in ISO 8601'),
  )
    .addHelpText(
      'after',
      `
Locally, each event shows each subscriber it was queued for: delivered, queued (with its next attempt and
last error) or dead. It only reads the state file: no secrets are needed, and the runner may be running.
Events are kept 14 days.

With --stack, events come from the stack's state table. Deliveries are not recorded per event there (SNS
and SQS carry them): each subscriber whose filter matches is shown as "routed"; dead letters, with why,
are in meal-notifier deliveries --stack NAME --failed. The table has no index by time: each call reads
the organization's whole event log (14 days).

Examples:
  $ meal-notifier events --config notifier.json --since 2h
  $ meal-notifier events --config notifier.json --order NS-1031
  $ meal-notifier events --config notifier.json --type canceled,completed --limit 200 --json
  $ meal-notifier events --config notifier.json --stack MealOrderNotifier --since 1d`,
    )
    .action(async (options: EventsOptions) => {
      requireStackFor(options);
      const now = Date.now();
      const query = parseQuery(options, now);
      const config = await loadConfigFile(options.config);
      const listing =
        options.stack === undefined
          ? await localEvents(config, options.config, query)
          : await stackEvents(config, { ...options, stack: options.stack }, query);
      const stdout = stdoutSink();
      if (options.json) {
        stdout.json(listing.events, 2);
        // stdout stays one array; that the limit cut it goes where a person sees it.
        if (listing.more) stderrSink().line(`more events match than --limit ${query.limit} lets through`);
        return;
      }
      if (listing.events.length > 0) {
        const organizationNames = new Map(config.organizations.map(({ id, name }) => [id, name]));
        stdout.line(
          formatEventsTable(listing.events, { nowMs: now, width: outputWidth(), organizationNames }),
        );
      }
      for (const line of summaryLines(listing, query, now)) stdout.line(line);
      if (options.stack !== undefined && listing.events.length > 0) {
        stdout.line(
          `routed: the subscriber's filter matches; a stack records no delivery per event (dead letters: meal-notifier deliveries --stack ${options.stack} --failed)`,
        );
      }
    });
}

function parseQuery(options: EventsOptions, nowMs: number): EventQuery {
  const types: EventType[] = eventTypesFlag(options.type ?? []);
  const order = options.order?.trim();
  if (order === '') throw new CliUsageError('--order needs an order reference (e.g. NS-1031) or uuid');
  return {
    ...(options.since === undefined ? {} : { sinceMs: parseSince(options.since, nowMs) }),
    ...(types.length === 0 ? {} : { types }),
    ...(order === undefined ? {} : { order }),
    limit: integerFlag('--limit', options.limit, 1, 10_000),
  };
}

async function localEvents(config: Config, configPath: string, query: EventQuery): Promise<Listing> {
  const statePath = statePathOf(config, configPath);
  // Opening the state file would create it: a config that never polled has no events to show.
  if (!stateFileExists(statePath)) {
    stderrSink().line(`no state file at ${statePath} yet: nothing was polled with this config`);
    return { events: [], more: false };
  }
  const state = await openLocalState(configPath);
  try {
    const organizationIds = state.config.organizations.map(({ id }) => id);
    const found = await findRecentEvents(state.store, organizationIds, query);
    const byEvent = new Map<string, SubscriberDelivery[]>();
    for (const delivery of await state.outbox.deliveriesOf(found.events.map(({ event }) => event.id))) {
      const deliveries = byEvent.get(delivery.eventId) ?? [];
      deliveries.push(outboxDelivery(delivery));
      byEvent.set(delivery.eventId, deliveries);
    }
    return {
      events: found.events.map((stored) => listedEvent(stored, byEvent.get(stored.event.id) ?? [])),
      more: found.more,
    };
  } finally {
    await state.close();
  }
}

async function stackEvents(
  config: Config,
  options: StackOptions & { stack: string },
  query: EventQuery,
): Promise<Listing> {
  return onDeployedStack(options, config, async (stack) => {
    const organizationIds = config.organizations.map(({ id }) => id);
    const found = await findRecentEvents(stack.store, organizationIds, query);
    return {
      events: found.events.map((stored) => listedEvent(stored, routedDeliveries(config.subscribers, stored))),
      more: found.more,
    };
  });
}

/** How many were listed and of what; when the limit left some out, how to see them. */
function summaryLines(listing: Listing, query: EventQuery, nowMs: number): string[] {
  const count = listing.events.length;
  const what = [
    query.types ? query.types.join(' or ') : '',
    count === 1 ? 'event' : 'events',
    query.order === undefined ? '' : `of order ${query.order}`,
    query.sinceMs === undefined
      ? ''
      : `since ${new Date(query.sinceMs).toISOString().slice(0, 19).replace('T', ' ')}Z (${humanDuration(nowMs - query.sinceMs)} ago)`,
  ]
    .filter(Boolean)
    .join(' ');
  if (count === 0)
    return [`no ${what}${query.sinceMs === undefined ? ' in the event log (kept 14 days)' : ''}`];
  return [
    `${count} ${what}, newest first`,
    ...(listing.more
      ? [`more match: raise --limit (now ${query.limit}), or narrow with --since, --type or --order`]
      : []),
  ];
}
