import { describe, expect, it } from 'vitest';
import { fieldChangeText } from '../../../shared/events/fieldChangeText.js';
import type { FieldChange } from '../../../shared/events/orderEvent.js';

const ORDER = { establishment: { uuid: 'e-main', name: 'Main Canteen' } };
const ZONE = 'Europe/Madrid';
const text = (change: FieldChange) => fieldChangeText(change, ORDER, ZONE);

describe('fieldChangeText', () => {
  it('says a cancellation or a completion at its time on the organization’s clock, not as a raw timestamp', () => {
    expect(text({ field: 'canceled_at', from: null, to: '2026-11-29T09:20:38.205000Z' })).toBe(
      'Canceled at 10:20, Sun 29 Nov',
    );
    expect(text({ field: 'completed_at', from: null, to: '2026-11-29T12:05:00Z' })).toBe(
      'Completed at 13:05, Sun 29 Nov',
    );
  });

  it('says a time that moved, and one that was cleared', () => {
    expect(text({ field: 'canceled_at', from: '2026-11-29T08:00:00Z', to: '2026-11-29T09:20:00Z' })).toBe(
      'Canceled at 10:20, Sun 29 Nov (was 09:00, Sun 29 Nov)',
    );
    expect(text({ field: 'canceled_at', from: '2026-11-29T09:20:00Z', to: null })).toBe(
      'No longer canceled (was canceled at 10:20, Sun 29 Nov)',
    );
    expect(text({ field: 'completed_at', from: '2026-11-29T09:20:00Z', to: null })).toBe(
      'No longer completed (was completed at 10:20, Sun 29 Nov)',
    );
    expect(text({ field: 'completed_at', from: null, to: null })).toBeUndefined();
  });

  it('says UTC when the event carries no zone (recorded before events carried one)', () => {
    const change: FieldChange = { field: 'canceled_at', from: null, to: '2026-11-29T01:20:38.205000Z' };
    expect(fieldChangeText(change, ORDER, undefined)).toBe('Canceled at 01:20 UTC, Sun 29 Nov');
  });

  it('gives a pickup date its weekday', () => {
    expect(text({ field: 'pickup_date', from: '2026-12-01', to: '2026-12-02' })).toBe(
      'Pickup date: Tue 1 Dec → Wed 2 Dec',
    );
  });

  it('says a status move as it is, and "none" for a side that has no value', () => {
    expect(text({ field: 'status', from: 'pending', to: 'canceled' })).toBe('Status: pending → canceled');
    expect(text({ field: 'status', from: null, to: 'pending' })).toBe('Status: none → pending');
  });

  it('names establishments where it can, and says the others as the caller asks', () => {
    const change: FieldChange = { field: 'establishment', from: 'e-side', to: 'e-main', from_name: 'Side' };
    expect(text(change)).toBe('Establishment: Side → Main Canteen');
    const unnamed: FieldChange = { field: 'establishment', from: 'e-side', to: 'e-main' };
    expect(text(unnamed)).toBe('Establishment: e-side → Main Canteen');
    expect(fieldChangeText(unnamed, ORDER, ZONE, () => 'another establishment')).toBe(
      'Establishment: another establishment → Main Canteen',
    );
  });
});
