// `meal-notifier republish --stack NAME`: publishes the events of each stream batch the publisher gave up
// on (its failure queue) to the event topic, as the publisher would have, and deletes each batch's record
// once all its events are out. Only on AWS: the local runner has no publisher.
import { Command } from 'commander';
import { catchUpThresholds } from '../../shared/config/catchUpAfter.js';
import { loadConfigFile } from '../../shared/config/loadConfig.js';
import { STACK_OUTPUT_KEYS } from '../../shared/contracts/stackOutputKeys.js';
import { highlightWordsOf } from '../../shared/delivery/highlightWordsOf.js';
import { StackOutputsError } from '../../shared/operations/errors.js';
import { republishFailedBatches } from '../../shared/operations/republishFailedBatches.js';
import { counted } from '../../shared/text/counted.js';
import { onDeployedStack, type StackOptions, withStackOptions } from '../aws/stackOptions.js';
import { CliUsageError, EXIT_FAILURE } from '../errors.js';
import { withConfigOption } from '../flags.js';
import { stderrSink } from '../output/outputSink.js';

interface RepublishOptions extends StackOptions {
  config: string;
  byTime?: boolean;
}

export function republishCommand(): Command {
  return withStackOptions(
    withConfigOption(
      new Command('republish').description(
        'Publish the events the publisher gave up on (its failure queue), on a deployed stack',
      ),
      'the config file the stack was deployed with',
    ).option(
      '--by-time',
      'for a batch the stream no longer holds (after 24 h): publish every event recorded while it reached the stream',
    ),
  )
    .addHelpText(
      'after',
      `
Each message on the publisher's failure queue names a batch of stream records (shard and sequence
numbers). republish reads those records back from the table's stream, publishes their events to the
event topic with the attributes and bodies the publisher uses, and deletes the message once all are
published. A batch that cannot be finished stays on the queue, with a line saying why. The stream keeps
records 24 hours; for an older batch, --by-time publishes the events recorded in its time window instead,
some of which may have been published already (webhook receivers dedupe on the event id).

Examples:
  $ meal-notifier republish --config notifier.json --stack MealOrderNotifier
  $ meal-notifier republish --config notifier.json --stack MealOrderNotifier --by-time`,
    )
    .action(async (options: RepublishOptions) => {
      if (options.stack === undefined) {
        throw new CliUsageError('republish works on a deployed stack: give --stack NAME');
      }
      const config = await loadConfigFile(options.config);
      await onDeployedStack({ ...options, stack: options.stack }, config, async (stack) => {
        const { eventTopicArn } = stack.resources;
        if (!stack.failureQueue || eventTopicArn === undefined) {
          throw new StackOutputsError(
            `stack ${options.stack} has no outputs ${STACK_OUTPUT_KEYS.publisherFailureQueue} and ${STACK_OUTPUT_KEYS.eventTopic}, which republish needs`,
          );
        }
        const [{ DynamoStreamBatchReader }, { SnsEventPublisher }] = await Promise.all([
          import('../aws/dynamoStreamBatchReader.js'),
          import('../aws/snsEventPublisher.js'),
        ]);
        const outcomes = await republishFailedBatches(
          {
            failureQueue: stack.failureQueue,
            stream: new DynamoStreamBatchReader(stack.clients.streams),
            publisher: new SnsEventPublisher(
              stack.clients.sns,
              eventTopicArn,
              highlightWordsOf(config.organizations),
              catchUpThresholds(config.subscribers).map((ms) => ms / 1000),
            ),
            store: stack.store,
            organizationIds: config.organizations.map(({ id }) => id),
          },
          { byTime: options.byTime ?? false },
        );
        const stderr = stderrSink();
        for (const outcome of outcomes) {
          if (outcome.state === 'republished') {
            stderr.line(
              `${outcome.batch}: ${counted(outcome.published, 'event')} published; removed from the queue`,
            );
          } else {
            stderr.line(`${outcome.batch}: left on the queue: ${outcome.detail ?? 'see above'}`);
          }
          for (const skipped of outcome.skipped ?? []) {
            stderr.line(`  not an event, not published: ${skipped}`);
          }
        }
        const left = outcomes.filter(({ state }) => state === 'left').length;
        const published = outcomes.reduce((sum, { published }) => sum + published, 0);
        stderr.line(
          outcomes.length === 0
            ? 'the publisher gave up on nothing: its failure queue is empty'
            : `${counted(published, 'event')} republished from ${counted(outcomes.length - left, 'batch', 'batches')}; ${counted(left, 'batch', 'batches')} left`,
        );
        if (left > 0) process.exitCode = EXIT_FAILURE;
      });
    });
}
