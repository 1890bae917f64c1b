// `meal-notifier send-test --config FILE --subscriber ID [--type TYPE]`: one sample event, marked as a test,
// delivered to one subscriber by its real sender (Standard Webhooks signing, Slack blocks, SMTP), and what
// the receiver answered. The state file is never opened: the sample is in no event log, outbox or count.
import { Command } from 'commander';
import { isSlackAppSubscriber } from '../../shared/config/configSchema.js';
import { configProblemsIn, loadConfigDocument } from '../../shared/config/loadConfig.js';
import { subscriberPathIn } from '../../shared/config/secretReferences.js';
import { EnvSecretResolver, missingSecretProblem } from '../../shared/config/secretResolver.js';
import { buildSender } from '../../shared/delivery/buildSender.js';
import { SubscriberConfigError } from '../../shared/delivery/errors.js';
import { highlightWordsOf } from '../../shared/delivery/highlightWordsOf.js';
import { matchesFilter } from '../../shared/delivery/subscriberFilter.js';
import { SubscriberSenders } from '../../shared/delivery/subscriberSenders.js';
import { EVENT_TYPES } from '../../shared/events/notifierEvent.js';
import { createUndiciHttpClient } from '../../shared/http/undiciHttpClient.js';
import { subscriberProblem } from '../checkConfig/findSetupProblems.js';
import { EXIT_FAILURE } from '../errors.js';
import { suggestingChoiceFlag, withConfigOption } from '../flags.js';
import { stderrSink, stdoutSink } from '../output/outputSink.js';
import { formatTestDeliveryLine } from '../output/testDeliveryLine.js';
import { findSubscriber, findSubscriberMissingSecrets } from '../sendTest/findSubscriber.js';
import { postSampleBoard } from '../sendTest/postSampleBoard.js';
import { defaultSampleType, sampleEventFor } from '../sendTest/sampleEventFor.js';

interface SendTestOptions {
  config: string;
  subscriber: string;
  type?: string;
}

export function sendTestCommand(): Command {
  return withConfigOption(
    new Command('send-test').description(
      'Send one sample event, marked as a test, to a subscriber, and show what its receiver answered',
    ),
  )
    .requiredOption('--subscriber <id>', 'subscriber id from the config')
    .option(
      '--type <type>',
      `event type: ${EVENT_TYPES.join(', ')} (default: order.created, or the first type the subscriber's filter takes)`,
    )
    .addHelpText(
      'after',
      `
The sample is a made-up order (or, with --type establishment.prep_summary, a made-up prep summary, and
with --type establishment.prep_changed, made-up changes to one), sent the way poll sends a real one: signed for a webhook, as blocks for Slack, through smtp.url for e-mail; to a Slack app subscriber, a sample board
with the sample as a reply in its thread. It
is marked as a test: its id starts with "test-", its data has "test": true, an order's reference starts
with "TEST-", and Slack and e-mail show TEST. It is not recorded
in the state file. Only this subscriber's secrets are needed (and smtp.url for e-mail). A subscriber with
"enabled": false, or whose filter would not take the sample, is sent it all the same, with a note.

Exit codes: 0 delivered, 1 not delivered (the receiver's answer is printed), 2 a config or usage problem.

Examples:
  $ meal-notifier send-test --config notifier.json --subscriber automation
  $ meal-notifier send-test --config notifier.json --subscriber office --type order.canceled
  $ meal-notifier send-test --config notifier.json --subscriber kitchen --type establishment.prep_summary`,
    )
    .action(async (options: SendTestOptions) => {
      const asked =
        options.type === undefined ? undefined : suggestingChoiceFlag('--type', options.type, EVENT_TYPES);
      const { config, json } = await loadConfigDocument(options.config, {
        env: process.env,
        needed: { subscriber: options.subscriber },
      });
      const subscriber = findSubscriber(config, options.subscriber, options.config);
      // Its unset secrets, as poll and check-config list them (path, variable, the file's order).
      const unset = findSubscriberMissingSecrets(config, subscriber, process.env);
      if (unset.length > 0) throw configProblemsIn(options.config, json, unset.map(missingSecretProblem));
      const type = asked ?? defaultSampleType(subscriber);
      const stderr = stderrSink();
      const note = (message: string) => stderr.line(`note: ${message}`);
      if (!subscriber.enabled) {
        note(`subscriber "${subscriber.id}" has "enabled": false in the config; sending the test anyway`);
      }
      const event = sampleEventFor(config, subscriber, type, Date.now());
      if (!matchesFilter(subscriber.filter, event)) {
        note(
          `the filter of subscriber "${subscriber.id}" does not take this ${type}, so poll would not send it one; sending the test anyway`,
        );
      }
      const senders = new SubscriberSenders({
        // Disabled or not, it is built as poll would build it enabled.
        subscribers: [{ ...subscriber, enabled: true }],
        smtp: config.smtp,
        secrets: new EnvSecretResolver(process.env),
        build: buildSender,
        // The sample is the first organization's, and its notes are flagged with that one's words.
        highlightWords: highlightWordsOf(config.organizations),
        tuning: { httpClient: createUndiciHttpClient },
        onWarning: (message) => stderr.line(`warning: ${message}`),
        subscriberPath: subscriberPathIn(config.subscribers),
      });
      try {
        // A setting that cannot work is refused here, exit 2, as check-config and poll list it.
        const sender = await senders.senderFor(subscriber.id).catch((error: unknown) => {
          if (!(error instanceof SubscriberConfigError)) throw error;
          throw configProblemsIn(options.config, json, [subscriberProblem(config, error)]);
        });
        if (!sender) throw new Error(`no sender was built for subscriber "${subscriber.id}"`);
        const started = performance.now();
        // A Slack app subscriber is shown a sample board with the sample as a reply in its thread, never
        // an edit of a real board.
        const outcome = isSlackAppSubscriber(subscriber)
          ? await postSampleBoard(
              {
                subscriber,
                token: process.env[subscriber.botToken.env] ?? '',
                highlightWords: highlightWordsOf(config.organizations),
                httpClient: createUndiciHttpClient,
              },
              event,
            )
          : await sender.send(event);
        const line = formatTestDeliveryLine(subscriber.id, event, outcome, performance.now() - started);
        if (outcome.kind === 'delivered') {
          stdoutSink().line(line);
        } else {
          stderr.line(`meal-notifier: ${line}`);
          process.exitCode = EXIT_FAILURE;
        }
      } finally {
        await senders.close();
      }
    });
}
