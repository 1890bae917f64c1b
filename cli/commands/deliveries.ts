// `meal-notifier deliveries`: what the local outbox holds that is not delivered yet, or is dead. With
// `--stack NAME`, what a deployed stack's dead-letter queues hold, with why, read without taking anything
// off them, and how many deliveries wait on each subscriber's queue.
import { Command } from 'commander';
import type { Config } from '../../shared/config/configSchema.js';
import { loadConfigFile } from '../../shared/config/loadConfig.js';
import { MAX_RECEIVE_COUNT } from '../../shared/contracts/deliveryQueueContract.js';
import { STACK_OUTPUT_KEYS } from '../../shared/contracts/stackOutputKeys.js';
import { eventReference } from '../../shared/events/notifierEvent.js';
import { type DeadLetterEntry, listDeadLetters } from '../../shared/operations/listDeadLetters.js';
import {
  listSubscriptionDeadLetters,
  NOT_DELIVERED_BY_SNS,
} from '../../shared/operations/subscriptionDeadLetters.js';
import { counted } from '../../shared/text/counted.js';
import {
  onDeployedStack,
  requireStackFor,
  type StackOptions,
  withStackOptions,
} from '../aws/stackOptions.js';
import { EXIT_FAILURE } from '../errors.js';
import { integerFlag, STACK_CONFIG, withConfigOption } from '../flags.js';
import { type DeliveryJson, deliveryJson } from '../output/deliveriesJson.js';
import { type DeliveryRow, formatDeliveriesTable } from '../output/deliveriesTable.js';
import { stderrSink, stdoutSink } from '../output/outputSink.js';
import { outputWidth } from '../output/outputWidth.js';
import { openLocalState } from '../runtime/localRuntime.js';

interface DeliveriesOptions extends StackOptions {
  config: string;
  failed?: boolean;
  json?: boolean;
  limit: string;
}

export function deliveriesCommand(): Command {
  return withStackOptions(
    withConfigOption(
      new Command('deliveries').description(
        'List deliveries still queued (with their next attempt) and dead letters',
      ),
      STACK_CONFIG,
    )
      .option('--failed', 'only dead letters')
      .option('--json', 'print one JSON array on stdout')
      .option('--limit <n>', 'with --stack: at most this many dead letters per subscriber', '100'),
  )
    .addHelpText(
      'after',
      `
With --stack, dead letters are read from the Slack and webhook channels' dead-letter queues, each letter
naming its subscriber, with the reason the delivery function gave, and from the SNS dead-letter queue
(what SNS could not deliver to an e-mail address or a channel's queue, with the subscriber it was for as
far as the message tells); they stay on the queues. Deliveries waiting on a channel's queue are counted,
every subscriber of the channel together, not listed: reading them would count as delivery attempts.

Examples:
  $ meal-notifier deliveries --config notifier.json
  $ meal-notifier deliveries --config notifier.json --failed --json
  $ meal-notifier deliveries --config notifier.json --stack MealOrderNotifier --failed`,
    )
    .action(async (options: DeliveriesOptions) => {
      requireStackFor(options);
      const limit = integerFlag('--limit', options.limit, 1, 10_000);
      if (options.stack !== undefined) {
        const config = await loadConfigFile(options.config);
        await stackDeliveries(config, { ...options, stack: options.stack }, limit);
        return;
      }
      await localDeliveries(options);
    });
}

async function localDeliveries(options: DeliveriesOptions): Promise<void> {
  const runtime = await openLocalState(options.config);
  try {
    const { outbox, eventLog } = runtime;
    const deliveries = options.failed
      ? await outbox.listDeliveries({ status: 'dead' })
      : (await outbox.listDeliveries()).filter((delivery) => delivery.status !== 'delivered');
    const rows: DeliveryRow[] = [];
    const json: DeliveryJson[] = [];
    for (const delivery of deliveries) {
      const stored = await eventLog.getEvent(delivery.eventId);
      const event = {
        eventType: stored?.event.type ?? 'unknown',
        reference: stored === undefined ? '' : eventReference(stored.event),
      };
      rows.push({ ...delivery, ...event });
      json.push(deliveryJson(delivery, event));
    }
    const stdout = stdoutSink();
    if (options.json) {
      stdout.json(json, 2);
      return;
    }
    const disabled = await outbox.disabledSubscribers();
    if (rows.length > 0) stdout.line(formatDeliveriesTable(rows, Date.now(), outputWidth()));
    const queued = rows.filter((row) => row.status === 'queued').length;
    stdout.line(`${queued} queued, ${rows.length - queued} dead`);
    for (const subscriber of disabled) {
      stdout.line(
        `subscriber ${subscriber.subscriberId} is disabled since ${new Date(subscriber.disabledAt).toISOString()}: ` +
          `${subscriber.reason} (replay to it to enable it again)`,
      );
    }
  } finally {
    await runtime.close();
  }
}

async function stackDeliveries(
  config: Config,
  options: DeliveriesOptions & { stack: string },
  limit: number,
): Promise<void> {
  await onDeployedStack(options, config, async (stack) => {
    const listing = await listDeadLetters(config, stack.queues, {
      limitPerQueue: limit,
      withQueued: !options.failed,
    });
    // What SNS could not deliver to a subscription (an e-mail address, a subscriber queue).
    const notes: string[] = [];
    if (stack.subscriptionDeadLetters) {
      try {
        const sns = await listSubscriptionDeadLetters(
          config,
          {
            queue: stack.subscriptionDeadLetters,
            endpoints: stack.subscriptionEndpoints,
            alarmTopicArn: stack.resources.alarmTopicArn,
          },
          limit,
        );
        listing.deadLetters.push(...sns.entries);
        listing.problems.push(...sns.problems);
      } catch (error) {
        listing.problems.push(error instanceof Error ? error.message : String(error));
      }
    } else {
      notes.push(
        `the stack has no output ${STACK_OUTPUT_KEYS.subscriptionDeadLetterQueue} (deployed before SNS dead letters were kept): what SNS could not deliver is not listed`,
      );
    }
    const disabled = [];
    for (const subscriber of config.subscribers) {
      const status = await stack.subscriberStatus.disabled(subscriber.id);
      if (status) disabled.push(status);
    }
    let publisherFailures: number | undefined;
    try {
      publisherFailures = await stack.failureQueue?.depth();
    } catch (error) {
      listing.problems.push(error instanceof Error ? error.message : String(error));
    }
    if (listing.problems.length > 0) process.exitCode = EXIT_FAILURE;
    const stdout = stdoutSink();
    if (options.json) {
      stdout.json(listing.deadLetters, 2);
      const stderr = stderrSink();
      for (const problem of listing.problems) stderr.line(`meal-notifier: not known: ${problem}`);
      for (const note of notes) stderr.line(`meal-notifier: ${note}`);
      return;
    }
    const rows = listing.deadLetters.map(toRow);
    if (rows.length > 0) stdout.line(formatDeliveriesTable(rows, Date.now(), outputWidth()));
    if (!options.failed) {
      for (const { channel, queued } of listing.queued) {
        if (queued > 0) {
          stdout.line(
            `${channel}: ${queued} waiting on the ${channel} queue, every ${channel} subscriber’s (counted, not listed)`,
          );
        }
      }
      const queued = listing.queued.reduce((sum, { queued }) => sum + queued, 0);
      stdout.line(`${queued} queued, ${rows.length} dead`);
    } else {
      stdout.line(`${rows.length} dead`);
    }
    for (const subscriber of disabled) {
      stdout.line(
        `subscriber ${subscriber.subscriberId} is disabled since ${new Date(subscriber.disabledAt).toISOString()}: ` +
          `${subscriber.reason} (meal-notifier replay --stack ${options.stack} --dead-letters enables it again)`,
      );
    }
    if (publisherFailures) {
      stdout.line(
        `${counted(publisherFailures, 'stream batch', 'stream batches')} the publisher gave up on: see meal-notifier republish --stack ${options.stack}`,
      );
    }
    for (const problem of listing.problems) stdout.line(`not known: ${problem}`);
    for (const note of notes) stdout.line(note);
  });
}

/** A dead letter in the local table's terms: its reason as the last error, its time as the last attempt. */
function toRow(entry: DeadLetterEntry): DeliveryRow {
  const status = entry.httpStatus === undefined ? '' : ` (HTTP ${entry.httpStatus})`;
  return {
    subscriberId: entry.subscriberId,
    eventId: entry.eventId ?? `(message ${entry.messageId})`,
    eventType: entry.eventType,
    reference: entry.reference,
    status: 'dead',
    // The queue's redrive policy moves a message after this many receives, each a delivery attempt; SNS
    // dead-letters at the first refusal by the endpoint (retrying only what the endpoint's service fails).
    attempts: entry.attempts ?? (entry.kind === NOT_DELIVERED_BY_SNS ? 1 : MAX_RECEIVE_COUNT),
    nextAttemptAt: entry.deadLetteredAt === undefined ? 0 : Date.parse(entry.deadLetteredAt),
    lastError: `${entry.kind}: ${entry.reason}${status}`,
  };
}
