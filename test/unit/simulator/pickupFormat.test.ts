import { describe, expect, it } from 'vitest';
import { normalizePickupDate } from '../../../shared/api/pickupDate.js';
import { dayMonthShortYear, PickupDateWriter } from '../../../simulator/pickupFormat.js';
import { SeededRandom } from '../../../simulator/seededRandom.js';

const DATE = '2026-03-09';
const uuids = (() => {
  const rng = new SeededRandom(3);
  return Array.from({ length: 20 }, () => rng.uuid());
})();

describe('PickupDateWriter', () => {
  it('writes YYYY-MM-DD in iso form and DD/MM/YY in dmy form, both read back to the same date', () => {
    expect(new PickupDateWriter('iso').nextResponse()(DATE, 'x')).toBe('2026-03-09');
    const short = new PickupDateWriter('dmy').nextResponse()(DATE, 'x');
    expect(short).toBe('09/03/26');
    expect(normalizePickupDate(short)).toBe(DATE);
    expect(dayMonthShortYear('2031-12-01')).toBe('01/12/31');
  });

  it('in mixed form varies by order within one response', () => {
    const write = new PickupDateWriter('mixed').nextResponse();
    const forms = new Set(uuids.map((uuid) => write(DATE, uuid)));
    expect(forms).toEqual(new Set(['2026-03-09', '09/03/26']));
  });

  it('in mixed form flips every order between consecutive responses, the same way on every run', () => {
    const writer = new PickupDateWriter('mixed');
    const first = uuids.map((uuid) => writer.nextResponse()(DATE, uuid));
    const again = new PickupDateWriter('mixed');
    const replay = uuids.map((uuid) => again.nextResponse()(DATE, uuid));
    expect(replay).toEqual(first);

    const twoResponses = new PickupDateWriter('mixed');
    const one = twoResponses.nextResponse();
    const two = twoResponses.nextResponse();
    for (const uuid of uuids) expect(one(DATE, uuid)).not.toBe(two(DATE, uuid));
  });
});
