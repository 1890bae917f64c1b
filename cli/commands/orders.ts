// `meal-notifier orders`: lists orders with the API's filters, walking every page.
import { Command, Option } from 'commander';
import { firstIssue } from '../../shared/api/listPage.js';
import { IsoDateSchema, type OrderQuery, OrderQuerySchema } from '../../shared/api/orderQuery.js';
import { ORDER_STATUSES, PAYMENT_METHODS } from '../../shared/api/schemas.js';
import { counted } from '../../shared/text/counted.js';
import { addDays, calendarDateIn, systemTimeZone } from '../../shared/time/calendarDate.js';
import { withApiClientOptions, withCliApiClient } from '../apiClient.js';
import type { ConnectionOptions } from '../connection.js';
import { CliUsageError } from '../errors.js';
import { timeZoneFlag } from '../flags.js';
import { writeListingWarnings } from '../output/listingWarnings.js';
import { formatOrdersTable } from '../output/ordersTable.js';
import { stderrSink, stdoutSink } from '../output/outputSink.js';
import { outputWidth } from '../output/outputWidth.js';

/** Without dates the API lists only "today" in a zone it does not name, so we always send both. */
const DEFAULT_SPAN_DAYS = 7;

interface OrdersOptions extends ConnectionOptions {
  status: string;
  establishment?: string;
  from?: string;
  to?: string;
  timeZone?: string;
  paymentMethod?: string;
  json?: boolean;
  verbose?: boolean;
}

export function ordersCommand(): Command {
  const command = new Command('orders')
    .description('List orders matching the filters, walking every page')
    .addOption(new Option('--status <status>', 'order status').choices(ORDER_STATUSES).default('pending'))
    .option('--establishment <uuid>', 'only this establishment')
    .option('--from <date>', 'first pickup date, YYYY-MM-DD (default: today in --time-zone)')
    .option('--to <date>', `last pickup date, YYYY-MM-DD (default: --from + ${DEFAULT_SPAN_DAYS} days)`)
    // Not a commander default: finding the machine's zone starts ICU (about 20 ms), for every command.
    .option('--time-zone <zone>', 'IANA time zone that defines "today" (default: this machine\'s)')
    .addOption(new Option('--payment-method <method>', 'payment method type').choices(PAYMENT_METHODS))
    .option('--json', 'print one JSON array of orders (pickup_at as YYYY-MM-DD) on stdout');
  return withApiClientOptions(
    command,
    `  $ meal-notifier orders
  $ meal-notifier orders --status canceled --from 2026-11-23 --to 2026-11-30
  $ meal-notifier orders --payment-method card --json > orders.json
  $ meal-notifier orders --config notifier.json --organization "North School"`,
  ).action(async (options: OrdersOptions, command: Command) => {
    const query = parseOrderQuery(options);
    await withCliApiClient(command, options.verbose ?? false, async (client) => {
      const listing = await client.listOrders(query);
      writeListingWarnings(listing, stderrSink());
      const stdout = stdoutSink();
      if (options.json) {
        stdout.json(listing.records, 2);
        return;
      }
      stdout.line(formatOrdersTable(listing.records, outputWidth()));
      stdout.line(
        `${counted(listing.records.length, `${query.status} order`)} with pickup ${query.startDate} to ${query.endDate}` +
          ` (${counted(listing.pages, 'page')})`,
      );
    });
  });
}

function parseOrderQuery(options: OrdersOptions): OrderQuery {
  const timeZone = timeZoneFlag(options.timeZone ?? systemTimeZone());
  const startDate = options.from ?? calendarDateIn(timeZone, Date.now());
  const parsed = OrderQuerySchema.safeParse({
    status: options.status,
    establishment: options.establishment,
    startDate,
    endDate: options.to ?? defaultEndDate(startDate),
    paymentMethod: options.paymentMethod,
  });
  if (!parsed.success) throw new CliUsageError(`invalid filter: ${describeQueryIssue(parsed.error)}`);
  return parsed.data;
}

function defaultEndDate(startDate: string): string | undefined {
  return IsoDateSchema.safeParse(startDate).success ? addDays(startDate, DEFAULT_SPAN_DAYS) : undefined;
}

const FLAG_OF: Record<string, string> = {
  startDate: '--from',
  endDate: '--to',
  establishment: '--establishment',
  status: '--status',
  paymentMethod: '--payment-method',
};

function describeQueryIssue(error: Parameters<typeof firstIssue>[0]): string {
  const issue = error.issues[0];
  const field = issue?.path[0];
  const flag = typeof field === 'string' ? FLAG_OF[field] : undefined;
  return flag ? `${flag}: ${issue?.message}` : firstIssue(error);
}
