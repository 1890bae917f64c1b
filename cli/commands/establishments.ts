// `meal-notifier establishments`: lists the organization's establishments (serving locations).
import { Command } from 'commander';
import { counted } from '../../shared/text/counted.js';
import { createCliApiClient } from '../apiClient.js';
import { addConnectionOptions, type ConnectionOptions, resolveConnection } from '../connection.js';
import { formatEstablishmentsTable } from '../output/establishmentsTable.js';
import { writeListingWarnings } from '../output/listingWarnings.js';

interface EstablishmentsOptions extends ConnectionOptions {
  json?: boolean;
  verbose?: boolean;
}

export function establishmentsCommand(): Command {
  const command = new Command('establishments')
    .description("List the organization's establishments; their uuids are what Slack subscribers filter on")
    .option('--json', 'print one JSON array of establishments on stdout')
    .option('--verbose', 'report every request on stderr');
  addConnectionOptions(command);
  return command
    .addHelpText(
      'after',
      '\nExamples:\n  $ meal-notifier establishments\n  $ meal-notifier establishments --json',
    )
    .action(async (options: EstablishmentsOptions) => {
      const client = createCliApiClient(resolveConnection(options), options.verbose ?? false);
      try {
        const listing = await client.listEstablishments();
        writeListingWarnings(listing, process.stderr);
        process.stdout.write(
          options.json
            ? `${JSON.stringify(listing.records, null, 2)}\n`
            : `${formatEstablishmentsTable(listing.records)}\n${counted(listing.records.length, 'establishment')}\n`,
        );
      } finally {
        await client.close();
      }
    });
}
