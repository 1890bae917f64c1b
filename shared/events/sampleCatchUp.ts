// The sample catch-up `meal-notifier send-test --type notifier.catch_up` delivers: made of three sample
// order events an hour old, so a channel sees what a catch-up after an outage looks like, marked as a test
// (an id starting with `test-`, `data.test: true`).
import { buildCatchUp } from './buildCatchUp.js';
import type { CatchUpEvent } from './catchUpEvent.js';
import { SAMPLE_EVENT_ID_PREFIX, type SampleEventInput, sampleEvent } from './sampleEvent.js';

export type SampleCatchUpInput = Omit<SampleEventInput, 'type'>;

const HOUR_MS = 3_600_000;

export function sampleCatchUp(input: SampleCatchUpInput): CatchUpEvent {
  const then = input.now - HOUR_MS;
  const events = (['order.created', 'order.created', 'order.canceled'] as const).map((type, index) => ({
    event: sampleEvent({ ...input, type, now: then + index * 60_000, nonce: `${input.nonce}-${index}` }),
  }));
  const catchUp = buildCatchUp({
    organization: input.organization,
    source: input.source,
    catchUpAfterMs: 15 * 60_000,
    nowMs: input.now,
    unpolled: { fromMs: then - 60_000, toMs: input.now },
    events,
  });
  return { ...catchUp, id: `${SAMPLE_EVENT_ID_PREFIX}${input.nonce}`, data: { ...catchUp.data, test: true } };
}
