// How a phase records what it builds: each built on its own (a builder's refusal is one line naming the
// organization), all logged in one call, and an id the log holds already not returned as new; anything
// else a build throws is a bug, which fails the cycle with its stack.
import { describe, expect, it } from 'vitest';
import { InternalError } from '../../../shared/errors/internalError.js';
import { PrepSummaryInputError } from '../../../shared/events/errors.js';
import { UnexpectedCycleError } from '../../../shared/poll/errors.js';
import { recordBuiltEvents } from '../../../shared/poll/recordBuiltEvents.js';
import { cycleFixture } from '../../support/cycleFixture.js';
import { makePrepSummary } from '../../support/stateStoreConformance.js';

const refusal = (problem: string) => new PrepSummaryInputError('e-1', '2026-03-10', problem);

describe('recordBuiltEvents', () => {
  it('records what it could build, names what its builder refused, and returns only the events new to the log', async () => {
    const { context, store } = await cycleFixture();
    const organizationId = context.organization.id;
    const [first, second] = [makePrepSummary(organizationId), makePrepSummary(organizationId, '2026-03-07')];
    await store.recordEvents(organizationId, [first]);
    const result = await recordBuiltEvents(
      context,
      ['first', 'broken', 'second'],
      PrepSummaryInputError,
      (due) => {
        if (due === 'broken') throw refusal('no closing time for Main Canteen');
        return due === 'first' ? first : second;
      },
    );
    expect(result.failures).toEqual([
      `${context.organization.name}: prep summary for establishment e-1 on 2026-03-10: no closing time for Main Canteen`,
    ]);
    expect(result.built.map(({ due }) => due)).toEqual(['first', 'second']);
    expect(result.events.map(({ id }) => id)).toEqual([second.id]);
    expect((await store.listEvents(organizationId)).map(({ event }) => event.id)).toEqual([
      first.id,
      second.id,
    ]);
  });

  it('logs nothing when nothing could be built', async () => {
    const { context, store } = await cycleFixture();
    const result = await recordBuiltEvents(context, ['broken'], PrepSummaryInputError, () => {
      throw refusal('no records');
    });
    expect(result).toEqual({
      built: [],
      events: [],
      failures: [
        `${context.organization.name}: prep summary for establishment e-1 on 2026-03-10: no records`,
      ],
    });
    expect(await store.listEvents(context.organization.id)).toEqual([]);
  });

  it('lets a TypeError through as the bug it is, with its stack, and records nothing', async () => {
    const { context, store } = await cycleFixture();
    const organizationId = context.organization.id;
    const bug = new TypeError("Cannot read properties of undefined (reading 'closesAt')");
    const thrown = await recordBuiltEvents(context, ['first', 'buggy'], PrepSummaryInputError, (due) => {
      if (due === 'buggy') throw bug;
      return makePrepSummary(organizationId);
    }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(UnexpectedCycleError);
    expect(thrown).toBeInstanceOf(InternalError);
    expect((thrown as InternalError).userFacing).toBe(false);
    expect((thrown as Error).cause).toBe(bug);
    expect((thrown as Error).message).toBe(
      `${context.organization.name}: building an event: unexpected TypeError: Cannot read properties of undefined (reading 'closesAt')`,
    );
    expect(await store.listEvents(organizationId)).toEqual([]);
  });
});
