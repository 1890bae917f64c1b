// `meal-notifier establishments`: lists the organization's establishments (serving locations).
import { Command } from 'commander';
import { counted } from '../../shared/text/counted.js';
import { withApiClientOptions, withCliApiClient } from '../apiClient.js';
import type { ConnectionOptions } from '../connection.js';
import { formatEstablishmentsTable } from '../output/establishmentsTable.js';
import { writeListingWarnings } from '../output/listingWarnings.js';
import { stderrSink, stdoutSink } from '../output/outputSink.js';
import { outputWidth } from '../output/outputWidth.js';

interface EstablishmentsOptions extends ConnectionOptions {
  json?: boolean;
  verbose?: boolean;
}

export function establishmentsCommand(): Command {
  const command = new Command('establishments')
    .description("List the organization's establishments; their uuids are what Slack subscribers filter on")
    .option('--json', 'print one JSON array of establishments on stdout');
  return withApiClientOptions(
    command,
    `  $ meal-notifier establishments
  $ meal-notifier establishments --json
  $ meal-notifier establishments --config notifier.json --organization "North School"`,
  ).action(async (options: EstablishmentsOptions, command: Command) => {
    await withCliApiClient(command, options.verbose ?? false, async (client) => {
      const listing = await client.listEstablishments();
      writeListingWarnings(listing, stderrSink());
      const stdout = stdoutSink();
      if (options.json) {
        stdout.json(listing.records, 2);
        return;
      }
      stdout.line(formatEstablishmentsTable(listing.records, outputWidth()));
      stdout.line(counted(listing.records.length, 'establishment'));
    });
  });
}
