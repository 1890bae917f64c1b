import { describe, expect, it } from 'vitest';
import { localTimeLabel } from '../../../shared/time/localTime.js';

describe('localTimeLabel', () => {
  it('reads an instant on the wall clock of the zone, with the day it falls on there', () => {
    // The API writes microseconds and Z; 01:20 UTC is still Saturday evening in São Paulo.
    expect(localTimeLabel('2026-11-29T01:20:38.205000Z', 'Europe/Lisbon')).toBe('01:20, Sun 29 Nov');
    expect(localTimeLabel('2026-11-29T01:20:38.205000Z', 'Europe/Madrid')).toBe('02:20, Sun 29 Nov');
    expect(localTimeLabel('2026-11-29T01:20:38.205000Z', 'America/Sao_Paulo')).toBe('22:20, Sat 28 Nov');
    expect(localTimeLabel('2026-11-29T01:20:38.205000Z', 'Asia/Kolkata')).toBe('06:50, Sun 29 Nov');
  });

  it('reads an instant written with an offset as the same instant', () => {
    expect(localTimeLabel('2026-11-29T10:20:00+01:00', 'Europe/Lisbon')).toBe('09:20, Sun 29 Nov');
  });

  it('reads an instant on the clock its offset shows when no zone is given', () => {
    expect(localTimeLabel('2026-11-24T11:00:00+01:00')).toBe('11:00, Tue 24 Nov');
    expect(localTimeLabel('2026-11-24T11:00:00+00:00')).toBe('11:00, Tue 24 Nov');
    expect(localTimeLabel('2026-11-24T23:30:00-03:00')).toBe('23:30, Tue 24 Nov');
    expect(localTimeLabel('2026-11-24T11:00:00.000Z')).toBe('11:00 UTC, Tue 24 Nov');
  });

  it('follows daylight saving time', () => {
    expect(localTimeLabel('2026-07-01T09:00:00Z', 'Europe/Lisbon')).toBe('10:00, Wed 1 Jul');
    expect(localTimeLabel('2026-01-01T09:00:00Z', 'Europe/Lisbon')).toBe('09:00, Thu 1 Jan');
  });

  it('writes midnight as 00:00, never 24:00', () => {
    expect(localTimeLabel('2026-11-29T00:05:00Z', 'UTC')).toBe('00:05, Sun 29 Nov');
  });

  it('says UTC when the zone is not known, so a time never reads as local when it is not', () => {
    expect(localTimeLabel('2026-11-29T01:20:38.205000Z', undefined)).toBe('01:20 UTC, Sun 29 Nov');
    expect(localTimeLabel('2026-11-29T01:20:38Z', 'Mars/Olympus_Mons')).toBe('01:20 UTC, Sun 29 Nov');
  });

  it('returns text that is not an instant as given', () => {
    expect(localTimeLabel('yesterday', 'Europe/Lisbon')).toBe('yesterday');
  });
});
