// The poll state's one DynamoDB item against DynamoDB Local: the largest organization the docs promise
// (docs/aws.md, "Limits on AWS") fits it whole with room to spare, as DynamoDB itself counts (the write's
// capacity units are its kilobytes); past that the store trims what can be forgotten, or refuses the state
// naming the setting to lower, before DynamoDB would refuse it on every cycle.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { prepSummaryKeyDate } from '../../../shared/detect/planPrepSummaries.js';
import { DynamoStateStore } from '../../../shared/store/dynamo/dynamoStateStore.js';
import type { PollState } from '../../../shared/store/pollState.js';
import {
  POLL_STATE_ITEM_RESERVE_BYTES,
  PollStateTooLargeError,
  pollStateBytes,
} from '../../../shared/store/pollStateSize.js';
import type { SavePollStateOptions } from '../../../shared/store/stateStore.js';
import { createLocalStateTable, type LocalTable } from '../../support/dynamoLocal.js';
import {
  LARGE_STATE_TODAY,
  largeOrganizationState,
  PROMISED_ORGANIZATION,
} from '../../support/largeOrganizationState.js';

describe('the poll state item on DynamoDB Local', () => {
  const tables: LocalTable[] = [];
  afterEach(async () => {
    await Promise.all(tables.splice(0).map((table) => table.drop()));
  });

  async function open() {
    const table = await createLocalStateTable();
    tables.push(table);
    const warn = vi.fn<(line: string) => void>();
    const store = new DynamoStateStore({ client: table.client, tableName: table.tableName, warn });
    /** Saves and returns the item's kilobytes as DynamoDB counted them (a first write's capacity units). */
    const saveMeasured = async (state: PollState, options?: SavePollStateOptions) => {
      const before = store.metrics.byOperation.savePollState.writeCapacityUnits;
      await store.savePollState(state, options);
      return store.metrics.byOperation.savePollState.writeCapacityUnits - before;
    };
    return { store, warn, saveMeasured };
  }

  // Each builds and saves a state of hundreds of kilobytes: seconds on a busy 2-core machine.
  it('holds the largest organization the docs promise whole, with a third of the item to spare', {
    timeout: 60_000,
  }, async () => {
    const { store, warn, saveMeasured } = await open();
    const state = largeOrganizationState(PROMISED_ORGANIZATION);
    expect(Object.values(state.prepSummaries).every((summary) => summary.items !== undefined)).toBe(true);

    const kilobytes = await saveMeasured(state);

    expect(kilobytes).toBeGreaterThan(200);
    expect(kilobytes).toBeLessThanOrEqual(400 * 0.67);
    // The policy's measure is from above, and close: never less than what DynamoDB counted.
    expect(pollStateBytes(state) + POLL_STATE_ITEM_RESERVE_BYTES).toBeGreaterThan((kilobytes - 1) * 1024);
    expect(await store.loadPollState(state.organizationId)).toEqual(state);
    expect(warn).not.toHaveBeenCalled();
  });

  it('saves an organization past it cycle after cycle, forgetting past days’ heard items first, and says so', {
    timeout: 60_000,
  }, async () => {
    const { store, warn, saveMeasured } = await open();
    // A week of past days kept: eight days of prep summaries instead of one, three times the item.
    const state = largeOrganizationState({ ...PROMISED_ORGANIZATION, daysBack: 7 });
    expect(pollStateBytes(state)).toBeGreaterThan(3 * 409_600);
    const owner = randomUUID();
    expect(await store.acquireLease(state.organizationId, owner, Date.now(), 60_000)).toBe(true);

    const first = await saveMeasured(state);
    const second = await saveMeasured(state, { leaseOwner: owner, releaseLease: true });

    expect(first).toBeLessThanOrEqual(400);
    expect(second).toBeLessThanOrEqual(400);
    const saved = await store.loadPollState(state.organizationId);
    // Every summary is still recorded (which closings were announced), and today's kitchens keep what they heard.
    expect(Object.keys(saved?.prepSummaries ?? {}).sort()).toEqual(Object.keys(state.prepSummaries).sort());
    const summaries = Object.entries(saved?.prepSummaries ?? {});
    const today = summaries.filter(([key]) => prepSummaryKeyDate(key) === LARGE_STATE_TODAY);
    expect(today).toHaveLength(PROMISED_ORGANIZATION.establishments);
    expect(today.every(([key, summary]) => summary.items !== undefined && key in state.prepSummaries)).toBe(
      true,
    );
    expect(summaries.filter(([, summary]) => summary.items === undefined).length).toBeGreaterThan(0);
    expect({ ...saved, prepSummaries: {} }).toEqual({ ...state, prepSummaries: {} });
    // A problem worked around is reported: one line per save, naming the organization and the setting.
    expect(warn).toHaveBeenCalledTimes(2);
    const line = warn.mock.calls[0]?.[0] ?? '';
    expect(line).not.toContain('\n');
    expect(line).toContain(`organization ${state.organizationId}`);
    expect(line).toContain('lower organizations[].window.daysBack');
    // The lease went back with the second save.
    expect(await store.acquireLease(state.organizationId, randomUUID(), Date.now(), 60_000)).toBe(true);
  });

  it('refuses, before any request, an organization no trim can fit, naming it and the setting to lower', {
    timeout: 60_000,
  }, async () => {
    const { store } = await open();
    // The widest window the config allows, at 50 establishments listed apart.
    const state = largeOrganizationState({ ...PROMISED_ORGANIZATION, daysBack: 31, daysAhead: 62 });

    const saving = store.savePollState(state);

    await expect(saving).rejects.toBeInstanceOf(PollStateTooLargeError);
    await expect(saving).rejects.toThrow(
      new RegExp(
        `^state store savePollState failed for organization ${state.organizationId}: .*lower organizations\\[\\]\\.window`,
      ),
    );
    expect(store.metrics.byOperation.savePollState.writeRequests).toBe(0);
  });
});
