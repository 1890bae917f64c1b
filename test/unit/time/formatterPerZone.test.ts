import { describe, expect, it, vi } from 'vitest';
import { formatterPerZone } from '../../../shared/time/formatterPerZone.js';

describe('formatterPerZone', () => {
  it('builds one formatter per zone and hands the same one back', () => {
    const make = vi.fn((timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }));
    const formatter = formatterPerZone(make);
    expect(formatter('Europe/Lisbon')).toBe(formatter('Europe/Lisbon'));
    expect(formatter('Asia/Tokyo')).not.toBe(formatter('Europe/Lisbon'));
    expect(make).toHaveBeenCalledTimes(2);
  });
});
