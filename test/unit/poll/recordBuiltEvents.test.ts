// How a phase records what it builds: each built on its own (a failure is one line naming the
// organization), all logged in one call, and an id the log holds already not returned as new.
import { describe, expect, it } from 'vitest';
import { recordBuiltEvents } from '../../../shared/poll/recordBuiltEvents.js';
import { cycleFixture } from '../../support/cycleFixture.js';
import { makePrepSummary } from '../../support/stateStoreConformance.js';

describe('recordBuiltEvents', () => {
  it('records what it could build, names what it could not, and returns only the events new to the log', async () => {
    const { context, store } = await cycleFixture();
    const organizationId = context.organization.id;
    const [first, second] = [makePrepSummary(organizationId), makePrepSummary(organizationId, '2026-03-07')];
    await store.recordEvents(organizationId, [first]);
    const result = await recordBuiltEvents(context, ['first', 'broken', 'second'], (due) => {
      if (due === 'broken') throw new Error('no closing time for Main Canteen');
      return due === 'first' ? first : second;
    });
    expect(result.failures).toEqual([`${context.organization.name}: no closing time for Main Canteen`]);
    expect(result.built.map(({ due }) => due)).toEqual(['first', 'second']);
    expect(result.events.map(({ id }) => id)).toEqual([second.id]);
    expect((await store.listEvents(organizationId)).map(({ event }) => event.id)).toEqual([
      first.id,
      second.id,
    ]);
  });

  it('logs nothing when nothing could be built', async () => {
    const { context, store } = await cycleFixture();
    const result = await recordBuiltEvents(context, ['broken'], () => {
      throw new Error('no records');
    });
    expect(result).toEqual({ built: [], events: [], failures: [`${context.organization.name}: no records`] });
    expect(await store.listEvents(context.organization.id)).toEqual([]);
  });
});
