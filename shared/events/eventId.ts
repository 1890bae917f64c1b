// Deterministic event ids: the same transition, seen twice, by two overlapping runs or after a crash,
// gets the same id, so stores refuse the copy and consumers can dedupe on it.
import { createHash } from 'node:crypto';

/**
 * An id derived from (organization, order, new state), shaped as a UUID (version 8, "custom") so that
 * consumers which expect UUID-shaped ids accept it.
 * @param state what the order became, e.g. `created` or `canceled@2026-11-22T10:00:00.000000Z`
 */
export function eventId(organizationId: string, orderUuid: string, type: string, state: string): string {
  const hex = createHash('sha256').update(`${organizationId}\n${orderUuid}\n${type}\n${state}`).digest('hex');
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
