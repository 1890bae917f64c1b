// What the AWS watchdog tells the alarm topic when the set of overdue organizations changes: a CloudWatch
// alarm's notification can only carry its fixed description, so this message is the one that names the
// organizations and says why, in the words of `meal-notifier status --stack`. Once per change, not once a
// minute: the watchdog remembers which organizations it last announced (OverdueMemory).
import type { OverdueOrganization } from './watchChains.js';

/** The organizations the last notice announced as overdue, kept between watchdog runs. */
export interface OverdueMemory {
  /** Their ids; none before the first notice. */
  load(): Promise<readonly string[]>;
  save(organizationIds: readonly string[]): Promise<void>;
}

export interface OverdueNotice {
  /** At most 100 characters, as SNS takes a subject. */
  subject: string;
  message: string;
}

/** SNS refuses a longer subject. */
const MAX_SUBJECT_CHARS = 100;

/**
 * The notice for a change of the overdue set since `announced`, or undefined when nothing changed.
 * `names` gives the name of an organization that recovered (it is no longer in `overdue`).
 */
export function overdueNotice(
  announced: readonly string[],
  overdue: readonly OverdueOrganization[],
  names: ReadonlyMap<string, string>,
): OverdueNotice | undefined {
  const before = new Set(announced);
  const now = new Set(overdue.map(({ organization }) => organization));
  const newlyOverdue = overdue.filter(({ organization }) => !before.has(organization));
  const recovered = announced.filter((id) => !now.has(id));
  if (newlyOverdue.length === 0 && recovered.length === 0) return undefined;
  const lines: string[] = [];
  if (overdue.length > 0) {
    lines.push(`${overdue.length} organization${overdue.length === 1 ? ' is' : 's are'} overdue:`);
    for (const { problem } of overdue) lines.push(`- ${problem}`);
  }
  if (recovered.length > 0) {
    lines.push(`Polled again: ${recovered.map((id) => names.get(id) ?? id).join(', ')}.`);
  }
  const subject =
    overdue.length === 0
      ? 'meal-order-notifier: every organization polled again'
      : `meal-order-notifier: ${overdue.length} organization${overdue.length === 1 ? '' : 's'} not polled`;
  return { subject: subject.slice(0, MAX_SUBJECT_CHARS), message: lines.join('\n') };
}

export interface NoticeDependencies {
  memory: OverdueMemory;
  /** Publishes the notice (the alarm topic). */
  notify(notice: OverdueNotice): Promise<void>;
}

/**
 * Sends the notice of a change, then remembers what it announced. A failed publish is not remembered, so
 * the next run sends it again: a notice may come twice, never not at all.
 */
export async function noticeOverdueChange(
  overdue: readonly OverdueOrganization[],
  names: ReadonlyMap<string, string>,
  deps: NoticeDependencies,
): Promise<OverdueNotice | undefined> {
  const notice = overdueNotice(await deps.memory.load(), overdue, names);
  if (notice === undefined) return undefined;
  await deps.notify(notice);
  await deps.memory.save(overdue.map(({ organization }) => organization));
  return notice;
}
