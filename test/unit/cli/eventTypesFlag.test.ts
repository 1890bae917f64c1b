// `--type`: repeated or comma-separated, full or short names, any case; a typo gets the nearest type.
import { describe, expect, it } from 'vitest';
import { CliUsageError } from '../../../cli/errors.js';
import { eventTypesFlag } from '../../../cli/eventTypesFlag.js';

describe('eventTypesFlag', () => {
  it('takes full and short names, repeated and in comma lists, once each', () => {
    expect(eventTypesFlag([])).toEqual([]);
    expect(eventTypesFlag(['order.created'])).toEqual(['order.created']);
    expect(eventTypesFlag(['canceled, Completed', 'order.CANCELED', 'status_changed'])).toEqual([
      'order.canceled',
      'order.completed',
      'order.status_changed',
    ]);
  });

  it.each([
    ['order.cancelled', '--type "order.cancelled" is not an event type (did you mean order.canceled?)'],
    ['cancelled', '--type "cancelled" is not an event type (did you mean order.canceled?)'],
    ['created,archivd', '--type "archivd" is not an event type (did you mean order.archived?)'],
  ])('suggests the nearest type for %j', (value, message) => {
    expect(() => eventTypesFlag([value])).toThrow(message);
  });

  it('names every known type when nothing is near, and refuses an empty one', () => {
    expect(() => eventTypesFlag(['refund'])).toThrow(
      '--type "refund" is not an event type; known: order.created, order.completed, order.canceled, order.archived, order.status_changed',
    );
    expect(() => eventTypesFlag(['created,'])).toThrow(CliUsageError);
    expect(() => eventTypesFlag(['created,'])).toThrow('--type "created," has an empty type');
  });
});
