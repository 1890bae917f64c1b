// The `meal-notifier` command tree.
import { Command, CommanderError, Option } from 'commander';
import { PRODUCT_VERSION } from '../shared/version.js';
import { checkConfigCommand } from './commands/checkConfig.js';
import { configSchemaCommand } from './commands/configSchema.js';
import { deliveriesCommand } from './commands/deliveries.js';
import { demoCommand } from './commands/demo.js';
import { establishmentsCommand } from './commands/establishments.js';
import { eventSchemaCommand } from './commands/eventSchema.js';
import { eventsCommand } from './commands/events.js';
import { ordersCommand } from './commands/orders.js';
import { pollCommand } from './commands/poll.js';
import { putSecretsCommand, putTokensCommand } from './commands/putSecrets.js';
import { replayCommand } from './commands/replay.js';
import { republishCommand } from './commands/republish.js';
import { sendTestCommand } from './commands/sendTest.js';
import { simulateCommand } from './commands/simulate.js';
import { statusCommand } from './commands/status.js';
import { stderrSink, stdoutSink } from './output/outputSink.js';

export function buildProgram(): Command {
  const program = new Command('meal-notifier')
    .description(
      'Turns the polling-only Meal-Ordering Admin API into order events: e-mail, Slack and signed webhooks.',
    )
    .version(PRODUCT_VERSION, '-v, --version', 'print the version')
    // commander's default short flag, kept for scripts written against it.
    .addOption(new Option('-V').hideHelp())
    .on('option:V', () => {
      stdoutSink().line(PRODUCT_VERSION);
      throw new CommanderError(0, 'commander.version', PRODUCT_VERSION);
    })
    .showSuggestionAfterError()
    .addCommand(demoCommand())
    .addCommand(pollCommand())
    .addCommand(checkConfigCommand())
    .addCommand(sendTestCommand())
    .addCommand(configSchemaCommand())
    .addCommand(eventSchemaCommand())
    .addCommand(statusCommand())
    .addCommand(deliveriesCommand())
    .addCommand(eventsCommand())
    .addCommand(replayCommand())
    .addCommand(republishCommand())
    .addCommand(putSecretsCommand())
    .addCommand(putTokensCommand())
    .addCommand(ordersCommand())
    .addCommand(establishmentsCommand())
    .addCommand(simulateCommand())
    .addHelpText(
      'after',
      `
See it work, with no account, network or config (Ctrl-C stops it):
  $ meal-notifier demo              # what npm start runs

Watch a real organization (docs/configuration.md describes the config file):
  $ meal-notifier check-config notifier.json --ping
  $ meal-notifier send-test --config notifier.json --subscriber kitchen   # a sample, marked TEST
  $ meal-notifier poll --config notifier.json
  $ meal-notifier status --config notifier.json
  $ meal-notifier events --config notifier.json --since 2h   # what happened, and to whom it went

Every command that reads a config takes --config FILE, or MEAL_NOTIFIER_CONFIG=FILE in the environment;
meal-notifier config-schema prints its JSON Schema, for editor completion; meal-notifier event-schema
prints the events' (--asyncapi: the webhooks' AsyncAPI document), for consumers.

On AWS, status, deliveries, events, replay and republish take --stack NAME (see the README, "Deploy on AWS"):
  $ meal-notifier status --config notifier.json --stack MealOrderNotifier

orders and establishments take the connection from --base-url, --organization and --token,
or from MEAL_API_BASE_URL, MEAL_API_ORGANIZATION and MEAL_API_TOKEN, or from a config:
  $ meal-notifier simulate          # in one terminal; prints the three variables to export
  $ meal-notifier orders            # in another
  $ meal-notifier orders --config notifier.json --organization "North School"

Run meal-notifier <command> --help for each command's options and examples.`,
    );
  for (const command of [program, ...program.commands]) {
    // Every subcommand throws instead of exiting, so main() decides the exit code in one place.
    command.exitOverride();
    // Help and usage errors are text for a person too (an argument echoed back, say).
    command.configureOutput({
      writeOut: (text) => stdoutSink().text(text),
      writeErr: (text) => stderrSink().text(text),
    });
  }
  return program;
}
