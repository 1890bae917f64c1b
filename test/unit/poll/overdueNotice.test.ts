// The watchdog's notice to the alarm topic: sent when the set of overdue organizations changes, naming each
// and why, and the ones polled again; not sent while nothing changes; sent again after a failed publish.
import { describe, expect, it } from 'vitest';
import {
  noticeOverdueChange,
  type OverdueMemory,
  type OverdueNotice,
  overdueNotice,
} from '../../../shared/poll/overdueNotice.js';
import type { OverdueOrganization } from '../../../shared/poll/watchChains.js';

const names = new Map([
  ['north', 'North School'],
  ['south', 'South Academy'],
]);
const north: OverdueOrganization = {
  organization: 'north',
  name: 'North School',
  problem: 'North School: token rejected: put a new token; the API answered 401',
};
const south: OverdueOrganization = {
  organization: 'south',
  name: 'South Academy',
  problem: 'South Academy: last successful poll 12 min ago, over the 5 min its poll interval of 1 min allows',
};

describe('overdueNotice', () => {
  it('names each overdue organization with why, under a subject that counts them', () => {
    expect(overdueNotice([], [north, south], names)).toEqual({
      subject: 'meal-order-notifier: 2 organizations not polled',
      message: `2 organizations are overdue:\n- ${north.problem}\n- ${south.problem}`,
    });
  });

  it('says nothing while the overdue set stays the same, even if the reasons change', () => {
    expect(
      overdueNotice(['north'], [{ ...north, problem: 'North School: API down' }], names),
    ).toBeUndefined();
    expect(overdueNotice([], [], names)).toBeUndefined();
  });

  it('says which organizations are polled again, and when all are', () => {
    expect(overdueNotice(['north', 'south'], [south], names)).toEqual({
      subject: 'meal-order-notifier: 1 organization not polled',
      message: `1 organization is overdue:\n- ${south.problem}\nPolled again: North School.`,
    });
    expect(overdueNotice(['south'], [], names)).toEqual({
      subject: 'meal-order-notifier: every organization polled again',
      message: 'Polled again: South Academy.',
    });
  });
});

describe('noticeOverdueChange', () => {
  function memory(initial: string[]): OverdueMemory & { saved: string[] } {
    const state = { saved: initial };
    return {
      get saved() {
        return state.saved;
      },
      load: async () => state.saved,
      save: async (ids) => {
        state.saved = [...ids];
      },
    };
  }

  it('remembers what it announced, so the next run with the same set sends nothing', async () => {
    const sent: OverdueNotice[] = [];
    const remembered = memory([]);
    const deps = { memory: remembered, notify: async (notice: OverdueNotice) => void sent.push(notice) };
    await noticeOverdueChange([north], names, deps);
    await noticeOverdueChange([north], names, deps);
    expect(sent).toHaveLength(1);
    expect(remembered.saved).toEqual(['north']);
  });

  it('does not remember a notice it could not send: the next run sends it again', async () => {
    const remembered = memory([]);
    const failing = {
      memory: remembered,
      notify: async () => {
        throw new Error('SNS unreachable');
      },
    };
    await expect(noticeOverdueChange([north], names, failing)).rejects.toThrow('SNS unreachable');
    expect(remembered.saved).toEqual([]);
    const sent: OverdueNotice[] = [];
    await noticeOverdueChange([north], names, {
      memory: remembered,
      notify: async (notice) => void sent.push(notice),
    });
    expect(sent.map(({ subject }) => subject)).toEqual(['meal-order-notifier: 1 organization not polled']);
  });
});
