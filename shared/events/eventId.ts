// Deterministic event ids: the same transition, seen twice, by two overlapping runs or after a crash,
// gets the same id, so stores refuse the copy and consumers can dedupe on it.
import { createHash } from 'node:crypto';
import { CATCH_UP_EVENT_TYPE } from './catchUpEvent.js';
import { PREP_CHANGED_EVENT_TYPE } from './prepChangedEvent.js';
import { PREP_SUMMARY_EVENT_TYPE } from './prepSummaryEvent.js';

/**
 * An id derived from (organization, subject, type, new state), shaped as a UUID (version 8, "custom") so
 * that consumers which expect UUID-shaped ids accept it. The type is part of every id's input, so events of
 * different types never share an id, whatever their other inputs.
 * @param subject the order's uuid (the establishment's, for a prep summary)
 * @param state what the order became, e.g. `created` or `canceled@2026-11-22T10:00:00.000000Z`
 */
export function eventId(organizationId: string, subject: string, type: string, state: string): string {
  const hex = createHash('sha256').update(`${organizationId}\n${subject}\n${type}\n${state}`).digest('hex');
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The one id of an establishment's prep summary for a pickup date, whoever records it and however often:
 * its own type keeps it apart from every order event's id. uuids are compared lower-cased, as the config
 * and the filters compare them, so an API answer in capitals cannot make a second summary.
 */
export function prepSummaryEventId(
  organizationId: string,
  establishmentUuid: string,
  pickupDate: string,
): string {
  return eventId(
    organizationId.toLowerCase(),
    establishmentUuid.toLowerCase(),
    PREP_SUMMARY_EVENT_TYPE,
    pickupDate,
  );
}

/**
 * The id of the prep_changed that amends summary `summaryId` with the order events `gathered`: the same
 * summary and the same events (in any order) give the same id, so whatever records that gathering twice
 * (a cycle redone with the same order events, two runs that both saw them) logs it once; later events make
 * a new one. The establishment and date are in the input too, though the summary's id already names them,
 * so that no two kitchens can ever share one.
 */
export function prepChangedEventId(
  organizationId: string,
  establishmentUuid: string,
  pickupDate: string,
  summaryId: string,
  gathered: readonly string[],
): string {
  return eventId(
    organizationId.toLowerCase(),
    establishmentUuid.toLowerCase(),
    PREP_CHANGED_EVENT_TYPE,
    `${pickupDate}@${summaryId}@${[...new Set(gathered)].sort().join(',')}`,
  );
}

/**
 * The one id of a subscriber's digest of one organization's period, however often the period is looked
 * at, by this runner or after a restart: the store refuses the second copy. Its own namespace (the
 * digest type) keeps it apart from every event's id. A digest split into parts (splitDigest.ts) gives
 * part n its own id, the same on every run, so a retried run never sends a part twice.
 */
export function digestEventId(
  subscriberId: string,
  organizationId: string,
  periodStartMs: number,
  part = 1,
): string {
  const period = new Date(periodStartMs).toISOString();
  return eventId(
    organizationId.toLowerCase(),
    `subscriber:${subscriberId}`,
    'digest.email',
    // Part 1 is the digest itself, so a digest that fits one message keeps the id it always had.
    part === 1 ? period : `${period} part ${part}`,
  );
}

/**
 * The one id of a catch-up standing for these events (in any order), made for one threshold and, locally,
 * one subscriber: the same stale events give the same catch-up, whoever records it and however often.
 */
export function catchUpEventId(
  organizationId: string,
  catchUpAfterSeconds: number,
  eventIds: readonly string[],
  subscriberId?: string,
): string {
  const audience = subscriberId === undefined ? 'every subscriber' : `subscriber:${subscriberId}`;
  return eventId(
    organizationId.toLowerCase(),
    `${audience} after ${catchUpAfterSeconds}s`,
    CATCH_UP_EVENT_TYPE,
    [...eventIds].sort().join(','),
  );
}
