// The `meal-notifier` command tree.
import { Command } from 'commander';
import { PRODUCT_VERSION } from '../shared/version.js';
import { deliveriesCommand } from './commands/deliveries.js';
import { establishmentsCommand } from './commands/establishments.js';
import { ordersCommand } from './commands/orders.js';
import { pollCommand } from './commands/poll.js';
import { replayCommand } from './commands/replay.js';
import { simulateCommand } from './commands/simulate.js';

export function buildProgram(): Command {
  const program = new Command('meal-notifier')
    .description(
      'Turns the polling-only Meal-Ordering Admin API into order events: e-mail, Slack and signed webhooks.',
    )
    .version(PRODUCT_VERSION)
    .showSuggestionAfterError()
    .addCommand(ordersCommand())
    .addCommand(establishmentsCommand())
    .addCommand(pollCommand())
    .addCommand(deliveriesCommand())
    .addCommand(replayCommand())
    .addCommand(simulateCommand())
    .addHelpText(
      'after',
      `
Connection settings come from --base-url, --organization and --token,
or from MEAL_API_BASE_URL, MEAL_API_ORGANIZATION and MEAL_API_TOKEN.

Try it without an account:
  $ meal-notifier simulate          # in one terminal; prints the three variables to export
  $ meal-notifier orders            # in another`,
    );
  // Every subcommand throws instead of exiting, so main() decides the exit code in one place.
  for (const command of [program, ...program.commands]) command.exitOverride();
  return program;
}
