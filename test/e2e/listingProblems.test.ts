// Broken listings are reported, never passed in silence: `meal-notifier poll --once`, run as a real process
// against the simulator behind a proxy that breaks the pending listing (a malformed record, a uuid twice,
// an empty page that links on, a total that moves mid-walk), warns after the cycle line with the listing,
// the page and the order's uuid, in either log format, without --verbose and without quoting the record;
// and `meal-notifier status` lists an order whose record has been unreadable for over an hour.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStateStore } from '../../shared/store/sqlite/sqliteStateStore.js';
import { type RunningSimulator, startSimulator } from '../../simulator/startSimulator.js';
import { writeNorthSchoolConfig } from '../support/configFixtures.js';
import { type HostileListing, hostilePendingListing } from '../support/hostileListing.js';
import { timeoutFor } from '../support/loadedTimeouts.js';
import { type RewritingProxy, startRewritingProxy } from '../support/rewritingProxy.js';
import { runCli } from '../support/runCli.js';
import { ofKind } from './jsonLogLines.js';

/** Six CLI processes one after another: `poll --once` and `status`, before and after the record heals. */
const SIX_RUNS = timeoutFor({ cliRuns: 6 });

const HOUR_MS = 3_600_000;

let sim: RunningSimulator;
let proxy: RewritingProxy;
let hostile: HostileListing;
let dir: string;
let env: Record<string, string>;

async function writeConfig(name: string): Promise<{ path: string; statePath: string }> {
  const path = await writeNorthSchoolConfig(
    dir,
    sim,
    {
      api: { baseUrl: proxy.baseUrl },
      organization: { window: { daysBack: 0, daysAhead: 7 } },
      state: `${name}.db`,
    },
    `${name}.json`,
  );
  return { path, statePath: join(dir, `${name}.db`) };
}

function uuids(): { malformed: string; repeated: string } {
  const { malformedUuid, repeatedUuid } = hostile;
  if (!malformedUuid || !repeatedUuid) throw new Error('the proxy did not break page 1');
  return { malformed: malformedUuid, repeated: repeatedUuid };
}

beforeAll(async () => {
  // About 90 pending orders today: the pending listing spans four pages.
  sim = await startSimulator({ seed: 33, scenario: false, initialOrders: 120 });
  hostile = hostilePendingListing();
  proxy = await startRewritingProxy(sim.baseUrl, (url, body) => hostile.rewrite(url, body));
  dir = await mkdtemp(join(tmpdir(), 'listing-problems-'));
  env = { NORTH_TOKEN: sim.token };
});

afterAll(async () => {
  await proxy.close();
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a broken listing', () => {
  it('is warned about after the cycle line: listing, page and uuid of every problem, no record value', async () => {
    const { path } = await writeConfig('human');
    const result = await runCli(['poll', '--config', path, '--once'], env);
    expect(hostile.pagesServed.has(3), 'the pending listing spans three pages').toBe(true);
    const { malformed, repeated } = uuids();
    // Problems are warnings, not failures: the cycle polled, and says how many it met.
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^North School: .*, 4 listing problems(, cadence \w+)?, next in \d+ s$/m);
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('  warning: '));
    // Page by page; on a page, records read well (and any uuid listed twice among them) come first.
    expect(warnings).toEqual([
      expect.stringMatching(new RegExp(`listing pending, page 1, order ${repeated}: uuid listed twice`)),
      expect.stringMatching(
        new RegExp(`listing pending, page 1, order ${malformed}: skipped malformed record \\(.*total`),
      ),
      expect.stringMatching(/listing pending, page 2: empty page with more after it/),
      expect.stringMatching(
        /listing pending, page 3: inconsistent walk \(meta\.total moved from \d+ to \d+\)/,
      ),
    ]);
    expect(result.stderr).not.toContain('twelve euros');
    expect(result.stderr).not.toMatch(/@example|"email"/);
  });

  it('is carried by the JSON log: the cycle counts the problems, one warning record each', async () => {
    const { path } = await writeConfig('json');
    const result = await runCli(['poll', '--config', path, '--once', '--log-format', 'json'], env);
    expect(result.code).toBe(0);
    const [cycle] = ofKind(result.stderr, 'cycle');
    expect(cycle).toMatchObject({ level: 'warn', ok: true, listingProblems: 4 });
    const { malformed } = uuids();
    const problems = ofKind(result.stderr, 'listing');
    expect(problems.map((record) => record.problem)).toEqual([
      expect.objectContaining({ kind: 'repeated_uuid', listing: 'pending', page: 1 }),
      { kind: 'skipped_record', listing: 'pending', page: 1, uuid: malformed, detail: expect.any(String) },
      expect.objectContaining({ kind: 'empty_page_with_more', listing: 'pending', page: 2 }),
      expect.objectContaining({ kind: 'inconsistent_walk', listing: 'pending', page: 3 }),
    ]);
    for (const record of problems) expect(record).toMatchObject({ level: 'warn' });
  });

  it('leaves `status` listing an order unreadable for over an hour, until its record reads well', {
    timeout: SIX_RUNS,
  }, async () => {
    const { path, statePath } = await writeConfig('status');
    expect((await runCli(['poll', '--config', path, '--once'], env)).code).toBe(0);
    const { malformed } = uuids();

    // Just found: not yet worth a word from status.
    const fresh = JSON.parse((await runCli(['status', '--config', path, '--json'])).stdout);
    expect(fresh.organizations[0].unreadableOrders).toEqual([]);

    // As if the first cycle had been two hours ago: the state file says since when, status reads it.
    const store = new SqliteStateStore({ path: statePath });
    const state = await store.loadPollState(sim.organization.id);
    const entry = state?.unreadable[malformed];
    if (!state || !entry) throw new Error('the poll state does not remember the unreadable order');
    await store.savePollState({
      ...state,
      unreadable: { [malformed]: { ...entry, since: Date.now() - 2 * HOUR_MS } },
    });
    store.close();

    const json = await runCli(['status', '--config', path, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).organizations[0].unreadableOrders).toEqual([
      {
        uuid: malformed,
        since: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        lastSeenAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        listing: 'pending',
        page: 1,
        detail: expect.stringContaining('total'),
      },
    ]);
    const table = await runCli(['status', '--config', path]);
    expect(table.stdout).toMatch(
      new RegExp(
        `North School: 1 order unreadable for over an hour.*\\n {2}${malformed}: unreadable for 2 h, last in listing pending, page 1`,
      ),
    );

    hostile.heal();
    try {
      expect((await runCli(['poll', '--config', path, '--once'], env)).code).toBe(0);
    } finally {
      hostile = hostilePendingListing();
    }
    const healed = JSON.parse((await runCli(['status', '--config', path, '--json'])).stdout);
    expect(healed.organizations[0].unreadableOrders).toEqual([]);
  });
});
