// `meal-notifier deliveries`: what the local outbox holds that is not delivered yet, or is dead.
import { Command } from 'commander';
import { type DeliveryRow, formatDeliveriesTable } from '../output/deliveriesTable.js';
import { openLocalState } from '../runtime/localRuntime.js';

interface DeliveriesOptions {
  config: string;
  failed?: boolean;
  json?: boolean;
}

export function deliveriesCommand(): Command {
  return new Command('deliveries')
    .description('List deliveries still queued (with their next attempt) and dead letters')
    .requiredOption('--config <file>', 'config file (JSON)')
    .option('--failed', 'only dead letters')
    .option('--json', 'print one JSON array on stdout')
    .addHelpText(
      'after',
      '\nExamples:\n  $ meal-notifier deliveries --config notifier.json\n  $ meal-notifier deliveries --config notifier.json --failed --json',
    )
    .action(async (options: DeliveriesOptions) => {
      const runtime = await openLocalState(options.config);
      try {
        const { store } = runtime;
        const deliveries = options.failed
          ? await store.outbox.listDeliveries({ status: 'dead' })
          : (await store.outbox.listDeliveries()).filter((delivery) => delivery.status !== 'delivered');
        const rows: DeliveryRow[] = [];
        for (const delivery of deliveries) {
          const stored = await store.getEvent(delivery.eventId);
          rows.push({
            ...delivery,
            eventType: stored?.event.type ?? 'unknown',
            reference: stored?.event.data.order.reference ?? '',
          });
        }
        if (options.json) {
          process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
          return;
        }
        const disabled = await store.outbox.disabledSubscribers();
        process.stdout.write(rows.length > 0 ? `${formatDeliveriesTable(rows, Date.now())}\n` : '');
        const queued = rows.filter((row) => row.status === 'queued').length;
        process.stdout.write(`${queued} queued, ${rows.length - queued} dead\n`);
        for (const subscriber of disabled) {
          process.stdout.write(
            `subscriber ${subscriber.subscriberId} is disabled since ${new Date(subscriber.disabledAt).toISOString()}: ` +
              `${subscriber.reason} (replay to it to enable it again)\n`,
          );
        }
      } finally {
        await runtime.close();
      }
    });
}
