// `meal-notifier status` for people, locally or for a deployed stack: one table of organizations (each
// one's last error on a line of its own under it), one of subscribers, both fitted to the width given,
// orders unreadable for over an hour, establishment records the last read could not read, and the verdict: one line per health problem (an organization not
// polled lately, a disabled subscriber, dead letters, batches the publisher gave up on, what could not be
// read), or one line saying all is well.
import type { Health } from '../../shared/operations/healthVerdict.js';
import type { OrganizationStatus, StatusReport } from '../../shared/operations/statusReport.js';
import { counted } from '../../shared/text/counted.js';
import { humanDuration } from '../../shared/time/humanDuration.js';
import { renderTable, type TableRow } from './fitTable.js';

export function formatStatus(report: StatusReport, health: Health, nowMs: number, width?: number): string {
  const lines = [
    'stack' in report
      ? `Stack: ${report.stack} (state table ${report.tableName})`
      : `State file: ${report.statePath}${report.stateExists ? '' : ' (not created yet: nothing polled)'}`,
  ];
  lines.push(
    renderTable(
      {
        head: ['Organization', 'Last successful poll', 'Failures', 'Snapshots', 'Events 1 h', 'Events 24 h'],
        rows: report.organizations.flatMap((organization): TableRow[] => [
          [
            organization.name,
            describeWhen(organization.lastSuccessAt, nowMs),
            String(organization.consecutiveFailures),
            String(organization.snapshots),
            String(organization.eventsLastHour),
            String(organization.eventsLastDay),
          ],
          ...(organization.lastError ? [{ note: `last error: ${organization.lastError}` }] : []),
        ]),
      },
      width,
    ),
  );
  for (const organization of report.organizations) {
    lines.push(...unreadableNotes(organization, nowMs), ...unreadableEstablishmentNotes(organization, nowMs));
  }
  if (report.subscribers.length > 0) {
    lines.push(
      renderTable(
        {
          head: ['Subscriber', 'Type', 'Queued', 'Dead', 'State'],
          rows: report.subscribers.map((subscriber) => [
            subscriber.id,
            subscriber.type ?? '(not in config)',
            subscriber.queuedOnChannel === undefined
              ? count(subscriber.queued, subscriber.type)
              : `on ${subscriber.queuedOnChannel}`,
            count(subscriber.dead, subscriber.type),
            subscriber.disabled
              ? `disabled since ${subscriber.disabled.since}`
              : subscriber.paused
                ? `paused since ${subscriber.paused.since}`
                : subscriber.enabledInConfig
                  ? 'enabled'
                  : 'off in config',
          ]),
        },
        width,
      ),
    );
  }
  if ('stack' in report && report.channels.length > 0) {
    // One queue per channel type, shared: its count is the channel's, never any one subscriber's.
    lines.push(
      renderTable(
        {
          head: ['Channel queue', 'Queued', 'Shared by'],
          rows: report.channels.map((channel) => [
            channel.channel,
            channel.queued === null ? '?' : String(channel.queued),
            channel.subscribers.join(', '),
          ]),
        },
        width,
      ),
    );
  }
  const pollingOff = 'stack' in report && !report.pollingEnabled;
  if (pollingOff) {
    lines.push(
      `polling is off on stack ${report.stack} (deployed with -c polling=off): its organizations are not counted as failing`,
    );
  }
  if (health.healthy) {
    lines.push(
      pollingOff
        ? 'healthy: nothing dead'
        : `healthy: every organization polled successfully within the allowance of its poll interval, nothing dead`,
    );
  }
  lines.push(...health.problems);
  return `${lines.join('\n')}\n`;
}

/** A count, `-` where there is none to have (e-mail on AWS), `?` where it could not be read. */
function count(value: number | null, type: string | undefined): string {
  if (value !== null) return String(value);
  return type === 'email' ? '-' : '?';
}

function unreadableNotes(organization: OrganizationStatus, nowMs: number): string[] {
  const orders = organization.unreadableOrders;
  if (orders.length === 0) return [];
  const their = orders.length === 1 ? 'its' : 'their';
  return [
    `${organization.name}: ${counted(orders.length, 'order')} unreadable for over an hour; ${their} transitions go unseen until the API sends a valid record:`,
    ...orders.map(
      (order) =>
        `  ${order.uuid}: unreadable for ${humanDuration(nowMs - Date.parse(order.since))}, last in listing ${order.listing}, page ${order.page} (${order.detail})`,
    ),
  ];
}

function unreadableEstablishmentNotes(organization: OrganizationStatus, nowMs: number): string[] {
  const records = organization.unreadableEstablishments;
  if (records.length === 0) return [];
  return [
    `${organization.name}: ${counted(records.length, 'establishment record')} unreadable in the last read of GET /establishments:`,
    ...records.map(
      (record) =>
        `  ${record.uuid ?? '(no readable uuid)'}: page ${record.page} (${record.detail}), read ${humanDuration(nowMs - Date.parse(record.readAt))} ago; ${record.consequence}`,
    ),
  ];
}

function describeWhen(iso: string | null, nowMs: number): string {
  if (iso === null) return 'never';
  return `${iso.slice(0, 19).replace('T', ' ')}Z (${humanDuration(nowMs - Date.parse(iso))} ago)`;
}
