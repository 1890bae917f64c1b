// `meal-notifier replay`: sends events to a subscriber again, with their original ids (receivers dedupe on
// them), and re-enables the subscriber if it had been disabled.
import { Command } from 'commander';
import { defaultSleep } from '../../shared/api/requestBudget.js';
import { deliverUntilSettled } from '../../shared/delivery/deliverUntilSettled.js';
import { OutboxDelivery } from '../../shared/delivery/outboxDelivery.js';
import { matchesFilter } from '../../shared/delivery/subscriberFilter.js';
import { CliUsageError, EXIT_FAILURE } from '../errors.js';
import { formatDeliveryReportLine } from '../output/deliveryReportLine.js';
import { parseSince } from '../parseSince.js';
import { claimDelivery } from '../runtime/deliveryLease.js';
import { openLocalRuntime } from '../runtime/localRuntime.js';

interface ReplayOptions {
  config: string;
  subscriber: string;
  event?: string;
  since?: string;
}

export function replayCommand(): Command {
  return new Command('replay')
    .description('Send events to a subscriber again, under the same event ids')
    .requiredOption('--config <file>', 'config file (JSON)')
    .requiredOption('--subscriber <id>', 'subscriber id from the config')
    .option('--event <id>', 'one event, by id')
    .option(
      '--since <time>',
      'every event the subscriber matches since TIME: 2026-11-22T08:00:00Z, 2026-11-22, or 90m, 6h, 2d ago',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ meal-notifier replay --config notifier.json --subscriber automation --since 2h\n' +
        '  $ meal-notifier replay --config notifier.json --subscriber office --event 1e9683cc-8bb8-85a7-8571-d0591126b599',
    )
    .action(async (options: ReplayOptions) => {
      if ((options.event === undefined) === (options.since === undefined)) {
        throw new CliUsageError('give exactly one of --event ID or --since TIME');
      }
      const since = options.since === undefined ? undefined : parseSince(options.since, Date.now());
      const runtime = await openLocalRuntime(options.config, {
        onWarning: (message) => process.stderr.write(`warning: ${message}\n`),
      });
      try {
        const subscriber = runtime.config.subscribers.find(({ id }) => id === options.subscriber);
        if (!subscriber) {
          const known = runtime.config.subscribers.map(({ id }) => id).join(', ') || 'none';
          throw new CliUsageError(`no subscriber "${options.subscriber}" in the config (known: ${known})`);
        }
        if (!subscriber.enabled)
          throw new CliUsageError(`subscriber "${subscriber.id}" has "enabled": false in the config`);
        const { store } = runtime;
        const eventIds: string[] = [];
        if (options.event !== undefined) {
          const stored = await store.getEvent(options.event);
          if (!stored)
            throw new CliUsageError(
              `event ${options.event} is not in the state file (events are kept 14 days)`,
            );
          if (!matchesFilter(subscriber.filter, stored.event)) {
            throw new CliUsageError(
              `event ${options.event} does not match the filter of subscriber "${subscriber.id}"`,
            );
          }
          eventIds.push(stored.event.id);
        } else {
          for (const { id } of runtime.config.organizations) {
            for (const { event } of await store.listEvents(id, since)) {
              if (matchesFilter(subscriber.filter, event)) eventIds.push(event.id);
            }
          }
        }
        if (await store.outbox.enableSubscriber(subscriber.id)) {
          process.stderr.write(`subscriber ${subscriber.id} was disabled; it is enabled again\n`);
        }
        for (const eventId of eventIds) await store.outbox.requeue(subscriber.id, eventId, Date.now());
        process.stderr.write(`replaying ${eventIds.length} event(s) to ${subscriber.id}\n`);
        const claim = await claimDelivery(runtime);
        if (!claim.held) {
          // Delivering here too would send them twice: the running runner picks them up within a second.
          process.stderr.write(
            `queued; the running run (${claim.holder ?? 'unknown'}) delivers them: see meal-notifier deliveries\n`,
          );
          return;
        }
        const reports = await deliverUntilSettled({
          delivery: new OutboxDelivery({
            outbox: store.outbox,
            senders: runtime.senders,
            clock: Date.now,
            onDelivery: (report) => process.stderr.write(`${formatDeliveryReportLine(report, Date.now())}\n`),
            onError: (error) =>
              process.stderr.write(
                `meal-notifier: ${error instanceof Error ? error.message : String(error)}\n`,
              ),
          }),
          clock: Date.now,
          windowMs: 30_000,
          sleep: defaultSleep,
        });
        const delivered = new Set(
          reports
            .filter((report) => report.subscriberId === subscriber.id && report.state === 'delivered')
            .map((report) => report.eventId),
        );
        const undelivered = eventIds.filter((eventId) => !delivered.has(eventId));
        if (undelivered.length > 0) {
          process.stderr.write(
            `${undelivered.length} replayed event(s) not delivered yet: see meal-notifier deliveries\n`,
          );
          process.exitCode = EXIT_FAILURE;
        }
      } finally {
        await runtime.close();
      }
    });
}
