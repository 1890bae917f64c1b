// Pins which sample send-test builds for each kind of event: an order, a prep summary, or a prep_changed,
// each at the establishment the subscriber's filter names.

import { describe, expect, it } from 'vitest';
import { sampleEventFor } from '../../../cli/sendTest/sampleEventFor.js';
import type { Config } from '../../../shared/config/configSchema.js';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import { establishmentsOf } from '../../../shared/events/notifierEvent.js';
import { isSampleEvent } from '../../../shared/events/sampleEvent.js';
import { exampleConfig, NORTH_CANTEEN_ID } from '../../support/configFixtures.js';

const NOW = Date.UTC(2026, 10, 26, 11, 20);

/** The contract's example: its Slack kitchen channel filters to the North canteen. */
function config(): Config {
  return parseConfig(exampleConfig());
}

describe('sampleEventFor', () => {
  it.each(['order.canceled', 'establishment.prep_summary', 'establishment.prep_changed'] as const)(
    'builds a sample %s about the filter’s establishment',
    (type) => {
      const parsed = config();
      const subscriber = parsed.subscribers.find((candidate) => candidate.id === 'kitchen-north');
      if (!subscriber) throw new Error('no kitchen subscriber');
      const event = sampleEventFor(parsed, subscriber, type, NOW, '7d9f3a2e-1111-4222-8333-944455556666');
      expect(event.type).toBe(type);
      expect(isSampleEvent(event)).toBe(true);
      expect(event.id).toBe('test-7d9f3a2e-1111-4222-8333-944455556666');
      expect(establishmentsOf(event).map((uuid) => uuid.toLowerCase())).toContain(NORTH_CANTEEN_ID);
    },
  );
});
