// `meal-notifier status` for people: one table of organizations, one of subscribers, and the notes that
// need action (a disabled subscriber, dead letters).
import Table from 'cli-table3';
import type { StatusReport } from '../status/collectStatus.js';
import { humanDuration } from './humanDuration.js';

export function formatStatus(report: StatusReport, nowMs: number): string {
  const lines = [
    `State file: ${report.statePath}${report.stateExists ? '' : ' (not created yet: nothing polled)'}`,
  ];
  const organizations = new Table({
    head: [
      'Organization',
      'Last successful poll',
      'Failures',
      'Last error',
      'Snapshots',
      'Events 1 h',
      'Events 24 h',
    ],
    style: { head: [], border: [], compact: true },
    // Wrapped only when an error is long: an empty column 50 characters wide says nothing.
    ...(report.organizations.some((organization) => (organization.lastError?.length ?? 0) > 50)
      ? { colWidths: [null, null, null, 50, null, null, null], wordWrap: true }
      : {}),
  });
  for (const organization of report.organizations) {
    organizations.push([
      organization.name,
      describeWhen(organization.lastSuccessAt, nowMs),
      String(organization.consecutiveFailures),
      organization.lastError ?? '',
      String(organization.snapshots),
      String(organization.eventsLastHour),
      String(organization.eventsLastDay),
    ]);
  }
  lines.push(organizations.toString());
  if (report.subscribers.length > 0) {
    const subscribers = new Table({
      head: ['Subscriber', 'Type', 'Queued', 'Dead', 'State'],
      style: { head: [], border: [], compact: true },
    });
    for (const subscriber of report.subscribers) {
      subscribers.push([
        subscriber.id,
        subscriber.type ?? '(not in config)',
        String(subscriber.queued),
        String(subscriber.dead),
        subscriber.disabled
          ? `disabled since ${subscriber.disabled.since}`
          : subscriber.enabledInConfig
            ? 'enabled'
            : 'off in config',
      ]);
    }
    lines.push(subscribers.toString());
  }
  for (const subscriber of report.subscribers) {
    if (subscriber.disabled) {
      lines.push(
        `subscriber ${subscriber.id} is disabled: ${subscriber.disabled.reason} (meal-notifier replay to it enables it again)`,
      );
    }
  }
  const dead = report.subscribers.reduce((sum, subscriber) => sum + subscriber.dead, 0);
  if (dead > 0) lines.push(`${dead} dead letter(s): see meal-notifier deliveries --failed`);
  return `${lines.join('\n')}\n`;
}

function describeWhen(iso: string | null, nowMs: number): string {
  if (iso === null) return 'never';
  return `${iso.slice(0, 19).replace('T', ' ')}Z (${humanDuration(nowMs - Date.parse(iso))} ago)`;
}
