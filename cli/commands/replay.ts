// `meal-notifier replay`: sends events to a subscriber again, with their original ids (receivers dedupe on
// them), and re-enables the subscriber if it had been disabled. With `--stack NAME`, on a deployed stack:
// its dead-letter queue moved back to its queue (`--dead-letters`), or events of the state table put on
// its queue (shared/operations/replayOnStack.ts says why the queue and not the event topic); for an
// e-mail subscriber, what SNS could not e-mail re-sent to each recipient alone (`--dead-letters`).
import { Command } from 'commander';
import type { Config } from '../../shared/config/configSchema.js';
import { loadConfigFile } from '../../shared/config/loadConfig.js';
import { STACK_OUTPUT_KEYS } from '../../shared/contracts/stackOutputKeys.js';
import { deliverUntilSettled } from '../../shared/delivery/deliverUntilSettled.js';
import { OutboxDelivery } from '../../shared/delivery/outboxDelivery.js';
import { matchesFilter } from '../../shared/delivery/subscriberFilter.js';
import { replayOnStack, type StackReplayRequest } from '../../shared/operations/replayOnStack.js';
import { counted } from '../../shared/text/counted.js';
import { sleep } from '../../shared/time/sleep.js';
import {
  onDeployedStack,
  requireStackFor,
  type StackOptions,
  withStackOptions,
} from '../aws/stackOptions.js';
import { CliUsageError, EXIT_FAILURE } from '../errors.js';
import { STACK_CONFIG, withConfigOption } from '../flags.js';
import { formatDeliveryReportLine } from '../output/deliveryReportLine.js';
import { stderrSink } from '../output/outputSink.js';
import { parseSince } from '../parseSince.js';
import { claimDelivery } from '../runtime/deliveryLease.js';
import { openLocalRuntime } from '../runtime/localRuntime.js';

interface ReplayOptions extends StackOptions {
  config: string;
  subscriber: string;
  event?: string;
  since?: string;
  deadLetters?: boolean;
}

export function replayCommand(): Command {
  return withStackOptions(
    withConfigOption(
      new Command('replay').description('Send events to a subscriber again, under the same event ids'),
      STACK_CONFIG,
    )
      .requiredOption('--subscriber <id>', 'subscriber id from the config')
      .option('--event <id>', 'one event, by id')
      .option(
        '--since <time>',
        'every event the subscriber matches since TIME: 2026-11-22T08:00:00Z, 2026-11-22, or 90m, 6h, 2d ago',
      )
      .option(
        '--dead-letters',
        "with --stack: send the subscriber's dead letters again (a Slack or webhook subscriber's back to its channel's queue, an e-mail subscriber's re-sent by SNS)",
      ),
  )
    .addHelpText(
      'after',
      `
With --stack, a Slack or webhook subscriber's deliveries are put back on its SQS queue, and the delivery
function sends them: its dead letters (--dead-letters: its dead-letter queue, and what SNS could not put on
its queue, from the SNS dead-letter queue), or events from the state table (--event, --since)
as the event topic would have delivered them, only those its filter matches. A subscriber a receiver had
disabled is enabled again first, and what is replayed waits a minute, until every delivery function knows.
An e-mail subscriber's --dead-letters are what SNS could not e-mail: each is published again, with its
subject and text, as a re-sent e-mail that only its own recipient's subscription lets in, and deleted once
SNS accepted it.

Examples:
  $ meal-notifier replay --config notifier.json --subscriber automation --since 2h
  $ meal-notifier replay --config notifier.json --subscriber office --event 1e9683cc-8bb8-85a7-8571-d0591126b599
  $ meal-notifier replay --config notifier.json --stack MealOrderNotifier --subscriber automation --dead-letters
  $ meal-notifier replay --config notifier.json --stack MealOrderNotifier --subscriber office --dead-letters`,
    )
    .action(async (options: ReplayOptions) => {
      requireStackFor(options);
      const chosen = [options.event, options.since, options.deadLetters].filter(
        (value) => value !== undefined,
      );
      if (options.stack === undefined && options.deadLetters) {
        throw new CliUsageError(
          '--dead-letters needs --stack NAME; locally, replay dead deliveries with --since or --event',
        );
      }
      if (chosen.length !== 1) {
        throw new CliUsageError(
          options.stack === undefined
            ? 'give exactly one of --event ID or --since TIME'
            : 'give exactly one of --dead-letters, --event ID or --since TIME',
        );
      }
      const since = options.since === undefined ? undefined : parseSince(options.since, Date.now());
      const stderr = stderrSink();
      if (options.stack !== undefined) {
        const request: StackReplayRequest =
          since !== undefined
            ? { kind: 'since', sinceMs: since }
            : options.event !== undefined
              ? { kind: 'event', eventId: options.event }
              : { kind: 'deadLetters' };
        const config = await loadConfigFile(options.config);
        await replayToStack(config, { ...options, stack: options.stack }, request);
        return;
      }
      const runtime = await openLocalRuntime(options.config, {
        onWarning: (message) => stderr.line(`warning: ${message}`),
      });
      try {
        const subscriber = runtime.config.subscribers.find(({ id }) => id === options.subscriber);
        if (!subscriber) {
          const known = runtime.config.subscribers.map(({ id }) => id).join(', ') || 'none';
          throw new CliUsageError(`no subscriber "${options.subscriber}" in the config (known: ${known})`);
        }
        if (!subscriber.enabled)
          throw new CliUsageError(`subscriber "${subscriber.id}" has "enabled": false in the config`);
        const { store, eventLog, outbox } = runtime;
        const eventIds: string[] = [];
        if (options.event !== undefined) {
          const stored = await eventLog.getEvent(options.event);
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
        if (await outbox.enableSubscriber(subscriber.id)) {
          stderr.line(`subscriber ${subscriber.id} was disabled; it is enabled again`);
        }
        for (const eventId of eventIds) await outbox.requeue(subscriber.id, eventId, Date.now());
        stderr.line(`replaying ${counted(eventIds.length, 'event')} to ${subscriber.id}`);
        const claim = await claimDelivery(runtime);
        if (!claim.held) {
          // Delivering here too would send them twice: the running runner picks them up within a second.
          stderr.line(
            `queued; the running run (${claim.holder ?? 'unknown'}) delivers them: see meal-notifier deliveries`,
          );
          return;
        }
        const reports = await deliverUntilSettled({
          delivery: new OutboxDelivery({
            outbox,
            senders: runtime.senders,
            clock: Date.now,
            onDelivery: (report) => stderr.line(formatDeliveryReportLine(report, Date.now())),
            onError: (error) =>
              stderr.line(`meal-notifier: ${error instanceof Error ? error.message : String(error)}`),
          }),
          clock: Date.now,
          windowMs: 30_000,
          sleep,
        });
        const delivered = new Set(
          reports
            .filter((report) => report.subscriberId === subscriber.id && report.state === 'delivered')
            .map((report) => report.eventId),
        );
        const undelivered = eventIds.filter((eventId) => !delivered.has(eventId));
        if (undelivered.length > 0) {
          stderr.line(
            `${counted(undelivered.length, 'replayed event')} not delivered yet: see meal-notifier deliveries`,
          );
          process.exitCode = EXIT_FAILURE;
        }
      } finally {
        await runtime.close();
      }
    });
}

async function replayToStack(
  config: Config,
  options: ReplayOptions & { stack: string },
  request: StackReplayRequest,
): Promise<void> {
  await onDeployedStack(options, config, async (stack) => {
    const result = await replayOnStack(config, options.subscriber, request, {
      store: stack.store,
      subscriberStatus: stack.subscriberStatus,
      queues: stack.queues,
      subscriptionDeadLetters: stack.subscriptionDeadLetters,
      emailResender: stack.emailResender,
    });
    const stderr = stderrSink();
    if (result.reenabled) {
      stderr.line(`subscriber ${result.subscriberId} was disabled; it is enabled again`);
    }
    const fromSns =
      result.fromSubscriptionDeadLetters > 0
        ? ` (${result.fromSubscriptionDeadLetters} of them SNS could not put on its queue)`
        : '';
    if (result.via === 'email') {
      stderr.line(
        `${counted(result.replayed, 'undelivered e-mail')} re-sent to ${result.subscriberId}, each to its own recipient alone: see meal-notifier deliveries --stack ${options.stack}`,
      );
      for (const line of result.leftOnSubscriptionDeadLetters) stderr.line(line);
      if (result.leftOnSubscriptionDeadLetters.length > 0) process.exitCode = EXIT_FAILURE;
      return;
    }
    const what =
      request.kind === 'deadLetters'
        ? `${counted(result.replayed, 'dead letter')} moved back${fromSns}`
        : `${counted(result.replayed, 'event')} queued`;
    const when = result.delaySeconds > 0 ? `, delivered in ${result.delaySeconds} s` : '';
    stderr.line(
      `${what} to ${result.subscriberId}${when}: see meal-notifier status --stack ${options.stack}`,
    );
    for (const line of result.leftOnSubscriptionDeadLetters) stderr.line(line);
    if (request.kind === 'deadLetters' && stack.subscriptionDeadLetters === undefined) {
      stderr.line(
        `the stack has no output ${STACK_OUTPUT_KEYS.subscriptionDeadLetterQueue} (deployed before SNS dead letters were kept): only ${result.subscriberId}'s own dead-letter queue was moved back`,
      );
    }
  });
}
