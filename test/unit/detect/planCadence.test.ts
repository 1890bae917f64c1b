import { describe, expect, it } from 'vitest';
import type { EstablishmentSchedule } from '../../../shared/detect/closingTimes.js';
import { type CadenceInput, planCadence } from '../../../shared/detect/planCadence.js';

// November in Lisbon is UTC+0: wall-clock times read as UTC instants.
const at = (iso: string) => Date.parse(`${iso}Z`);
/** Closes at 10:00, Monday to Friday. */
const canteen: EstablishmentSchedule = {
  uuid: 'c',
  name: 'Main Canteen',
  working_days: [1, 2, 3, 4, 5],
  order_closing_time: '10:00:00',
};
/** Closes at 11:00, Monday to Saturday. */
const cafe: EstablishmentSchedule = {
  uuid: 'f',
  name: 'Café Bar',
  working_days: [1, 2, 3, 4, 5, 6],
  order_closing_time: '11:00:00',
};

function plan(now: string, overrides: Partial<CadenceInput> = {}) {
  return planCadence({
    cadence: 'auto',
    establishments: [canteen, cafe],
    timeZone: 'Europe/Lisbon',
    now: at(now),
    normalIntervalMs: 10_000,
    coldIntervalMs: 15 * 60_000,
    ...overrides,
  });
}

describe('planCadence', () => {
  it('is normal on a working day before the first hot window, and changes when that window opens', () => {
    // Tuesday 24 November 2026.
    expect(plan('2026-11-24T09:29:59')).toEqual({
      mode: 'normal',
      minIntervalMs: 10_000,
      changesAt: at('2026-11-24T09:30:00'),
    });
  });

  it('is hot from 30 minutes before a closing time, as fast as the floor allows, until the last window it runs into ends', () => {
    // The canteen's window (09:30–10:30) runs into the café's (10:30–11:30): one hot stretch.
    expect(plan('2026-11-24T09:30:00')).toEqual({
      mode: 'hot',
      minIntervalMs: 2_000,
      changesAt: at('2026-11-24T11:30:00') + 1,
    });
    expect(plan('2026-11-24T10:45:00').mode).toBe('hot');
    expect(plan('2026-11-24T11:30:00').mode).toBe('hot');
  });

  it('is normal again just after 30 minutes past the last closing time, until the next day’s window', () => {
    expect(plan('2026-11-24T11:30:01')).toEqual({
      mode: 'normal',
      minIntervalMs: 10_000,
      changesAt: at('2026-11-25T09:30:00'),
    });
  });

  it('is cold on a day no establishment works, with the cold gap, until the next working day begins', () => {
    // Sunday 29 November: Monday's orders are normal from midnight.
    expect(plan('2026-11-29T12:00:00')).toEqual({
      mode: 'cold',
      minIntervalMs: 15 * 60_000,
      changesAt: at('2026-11-30T00:00:00'),
    });
  });

  it('is normal on a day only one establishment works, hot around that one’s closing alone', () => {
    // Saturday 28 November: the café alone.
    expect(plan('2026-11-28T09:45:00')).toMatchObject({
      mode: 'normal',
      changesAt: at('2026-11-28T10:30:00'),
    });
    expect(plan('2026-11-28T10:45:00')).toMatchObject({
      mode: 'hot',
      changesAt: at('2026-11-28T11:30:00') + 1,
    });
    expect(plan('2026-11-28T12:00:00')).toMatchObject({
      mode: 'normal',
      changesAt: at('2026-11-29T00:00:00'),
    });
  });

  it('counts only the establishments the organization polls: without the café, Saturday is cold', () => {
    expect(plan('2026-11-28T10:45:00', { polled: ['C'] })).toMatchObject({
      mode: 'cold',
      changesAt: at('2026-11-30T00:00:00'),
    });
  });

  it('makes the evening before hot for a closing just after midnight, even on a cold day', () => {
    const night: EstablishmentSchedule = { ...canteen, working_days: [1], order_closing_time: '00:10:00' };
    // Sunday 23:39:59 is cold, 23:40 is 30 minutes before Monday's 00:10 closing.
    expect(plan('2026-11-29T23:39:59', { establishments: [night] })).toMatchObject({
      mode: 'cold',
      changesAt: at('2026-11-29T23:40:00'),
    });
    expect(plan('2026-11-29T23:40:00', { establishments: [night] })).toMatchObject({
      mode: 'hot',
      changesAt: at('2026-11-30T00:40:00') + 1,
    });
  });

  it('never makes a cold gap shorter than pollIntervalSeconds, nor a hot one longer', () => {
    expect(plan('2026-11-29T12:00:00', { normalIntervalMs: 30 * 60_000 }).minIntervalMs).toBe(30 * 60_000);
    expect(plan('2026-11-24T10:00:00', { normalIntervalMs: 2_000 }).minIntervalMs).toBe(2_000);
  });

  it('is fixed, at pollIntervalSeconds and with no change ahead, until the establishments are known', () => {
    expect(plan('2026-11-24T10:00:00', { establishments: null })).toEqual({
      mode: 'fixed',
      minIntervalMs: 10_000,
      changesAt: null,
    });
  });

  it('is fixed when the organization asks for it, or when the cache names none of its establishments', () => {
    expect(plan('2026-11-29T12:00:00', { cadence: 'fixed' })).toMatchObject({
      mode: 'fixed',
      changesAt: null,
    });
    expect(plan('2026-11-29T12:00:00', { establishments: [] }).mode).toBe('fixed');
    expect(plan('2026-11-29T12:00:00', { polled: ['other'] }).mode).toBe('fixed');
  });

  it('is fixed when a polled establishment’s record could not be read: its closing times are unknown', () => {
    // Tuesday 09:45 would be hot around the canteen's closing.
    const unreadable = [{ uuid: 'x', page: 1, detail: 'record #2 on the page: working_days: required' }];
    expect(plan('2026-11-24T09:45:00', { unreadable })).toEqual({
      mode: 'fixed',
      minIntervalMs: 10_000,
      changesAt: null,
    });
    // Without its uuid, it may be any of them.
    expect(plan('2026-11-24T09:45:00', { unreadable: [{}] }).mode).toBe('fixed');
    // One the organization does not poll changes nothing.
    expect(plan('2026-11-24T09:45:00', { unreadable, polled: ['c', 'f'] }).mode).toBe('hot');
    expect(plan('2026-11-24T09:45:00', { unreadable, polled: ['c', 'X'] }).mode).toBe('fixed');
    expect(plan('2026-11-24T09:45:00', { unreadable: [] }).mode).toBe('hot');
  });

  it('sees no change ahead when no establishment works any day: cold for good', () => {
    const never = { ...canteen, working_days: [] };
    expect(plan('2026-11-24T10:00:00', { establishments: [never] })).toEqual({
      mode: 'cold',
      minIntervalMs: 15 * 60_000,
      changesAt: null,
    });
  });

  it('follows the organization’s zone across a daylight saving change', () => {
    // Sunday 29 March 2026, Lisbon moves to UTC+1; Monday's canteen window opens 09:30 local = 08:30 UTC.
    expect(plan('2026-03-29T12:00:00').changesAt).toBe(at('2026-03-29T23:00:00'));
    expect(plan('2026-03-30T08:30:00')).toMatchObject({ mode: 'hot' });
  });
});
