// The README's "Slack-style and e-mail notifications, with no accounts" walkthrough, followed as a new user
// would: `simulate --receivers --show full` in one process, and in another `poll` with the README's own
// notifier.json (read from the README, the simulator's address and organization pasted in) at its default
// pace. That notifier.json is the one the simulator prints. What the user waits for is read from the two processes' lines, never from a sleep.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningCli, startCli } from '../support/runCli.js';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));
const SECTION = '### Slack-style and e-mail notifications, with no accounts';
const README_BASE_URL = 'http://127.0.0.1:4010/api/v1/admin';
/** The default world's organization, which the README's config names. */
const README_ORGANIZATION = 'e8aff230-1e80-47dd-b4e8-e7c495aa0549';
/** The README promises the next cycle this soon after the silent first one: its default interval. */
const NEXT_CYCLE_WITHIN_S = 10;
/** The Slack Web API stand-in beside the simulator's default port, as the README's config has it. */
const README_SLACK_API_URL = 'http://127.0.0.1:4011/api';

let simulator: RunningCli;
let poll: RunningCli;
let banner: string;
let env: Record<string, string>;
let dir: string;
let readmeJson: string;
/** What the runner said of its first cycle, the silent baseline. */
let baselineLine: string;

/** The first JSON block of the walkthrough's section, as a user copies it. */
async function readmeConfig(): Promise<string> {
  const readme = await readFile(README, 'utf8');
  const section = readme.slice(readme.indexOf(SECTION));
  const json = /```json\n([\s\S]*?)```/.exec(section)?.[1];
  if (!json || !section.startsWith(SECTION)) throw new Error(`no JSON block under "${SECTION}" in README.md`);
  return json;
}

/** Where this run's Slack Web API stand-in listens (on a free port, as the simulator's is). */
function printedSlackApiUrl(): string {
  return /apiUrl (http:\/\/127\.0\.0\.1:\d+\/api)/.exec(banner)?.[1] ?? 'no apiUrl printed';
}

beforeAll(async () => {
  simulator = startCli(['simulate', '--receivers', '--show', 'full', '--port', '0']);
  // The banner is written at once: when its last export is there, all of it is.
  banner = await simulator.waitForStdout(/export SMTP_URL=\S+\n[\s\S]*\n}\n/);
  env = Object.fromEntries([...banner.matchAll(/^export (\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
  dir = await mkdtemp(join(tmpdir(), 'walkthrough-'));

  readmeJson = await readmeConfig();
  const config = join(dir, 'notifier.json');
  await writeFile(
    config,
    readmeJson
      .replace(README_BASE_URL, env.MEAL_API_BASE_URL ?? '')
      .replace(README_ORGANIZATION, env.MEAL_API_ORGANIZATION ?? '')
      .replace(README_SLACK_API_URL, printedSlackApiUrl()),
  );
  poll = startCli(['poll', '--config', config], env);
  const baselineCycle = /^North School: .*, 0 events(, cadence \w+)?, next in \d+ s$/m;
  baselineLine = baselineCycle.exec(await poll.waitForStderr(baselineCycle))?.[0] ?? '';
});

afterAll(async () => {
  expect(await poll.stop('SIGINT')).toBe(0);
  expect(await simulator.stop('SIGINT')).toBe(0);
  await rm(dir, { recursive: true, force: true });
});

describe('the README walkthrough with simulate --receivers', () => {
  it('the simulator prints the connection of every organization it serves', () => {
    const lines = [...banner.matchAll(/^ {2}(.+?) +MEAL_API_ORGANIZATION=(\S+) MEAL_API_TOKEN=(\S+)$/gm)];
    expect(lines.map((line) => line[1])).toEqual(['North School', 'South Academy']);
    const [north, south] = lines;
    expect(north?.slice(2)).toEqual([env.MEAL_API_ORGANIZATION, env.MEAL_API_TOKEN]);
    expect(south?.[2]).toMatch(/^[0-9a-f-]{36}$/);
    expect(south?.[2]).not.toBe(env.MEAL_API_ORGANIZATION);
    expect(south?.[3]).toBe(env.SOUTH_ACADEMY_TOKEN);
    expect(banner).toContain(`export MEAL_API_BASE_URL=${env.MEAL_API_BASE_URL}\n`);
  });

  it("prints the README's notifier.json, its receivers' subscribers included, but for its address", () => {
    const printed = /save this as notifier\.json[^\n]*\n(\{\n[\s\S]*?\n\})\n/.exec(banner)?.[1] ?? '';
    const readme = JSON.parse(
      readmeJson
        .replace(README_BASE_URL, env.MEAL_API_BASE_URL ?? '')
        .replace(README_SLACK_API_URL, printedSlackApiUrl()),
    ) as unknown;
    expect(JSON.parse(printed)).toEqual(readme);
    expect(readme).toMatchObject({
      subscribers: [
        { id: 'kitchen', webhookUrl: { env: 'SLACK_URL' } },
        { id: 'office', to: ['office@example.org'] },
        { id: 'kitchen-board', botToken: { env: 'KITCHEN_SLACK_BOT_TOKEN' }, channel: 'C0KITCHEN1' },
      ],
      smtp: { url: { env: 'SMTP_URL' } },
    });
  });

  it("polling with the README's notifier.json, the first cycle after the silent baseline, 10 s after it, delivers", async () => {
    // The README's own config ran, as written but for what the user pastes in.
    expect(readmeJson).toContain(README_BASE_URL);
    expect(readmeJson).toContain(README_ORGANIZATION);
    // The runner's own plan, not the wall clock: on a loaded machine the cycle and the deliveries take
    // longer than they do for a user, and a timed bound fails for that alone.
    expect(Number(/next in (\d+) s$/.exec(baselineLine)?.[1])).toBeLessThanOrEqual(NEXT_CYCLE_WITHIN_S);
    const delivered = await poll.waitForStderr(/^delivered +\w+ +\S+ +to (kitchen|office) /m);

    // Found by the first cycle after the baseline, with no wait for request budget.
    // The README's config watches both schools: each one's baseline is silent, and the delivery came from
    // the cycle after one of them.
    const cyclesOf = (school: string) =>
      [...delivered.matchAll(new RegExp(`^${school}: .*?, (\\d+) events?, `, 'gm'))].map((m) => Number(m[1]));
    const schools = [cyclesOf('North School'), cyclesOf('South Academy')];
    for (const cycles of schools) expect(cycles[0] ?? 0).toBe(0);
    expect(schools.some((cycles) => cycles.length === 2 && (cycles[1] ?? 0) > 0)).toBe(true);
    expect(delivered).not.toMatch(/waiting for request budget|deferred/);
  });

  it('--show full prints what the subscribers see: the Slack blocks as text and the e-mail text part', async () => {
    // A message shown in full: its summary line, its body indented, then an empty line.
    const mailBlock = /\[mail to office@example\.org\] New order (\S+) — [^\n]+\n((?: {4}[^\n]*\n)+)\n/;
    // A transition's block: its title ends in the reference. The world edits orders too, and the first
    // message may be a change ("✏️ Changed NS-1024 · 🚨 notes") when the runner is slow to its first cycle.
    const slackBlock =
      /\[slack #kitchen\] ((?:🆕 New order|✅ Completed|❌ Canceled) \S+) — [^\n]+\n((?: {4}[^\n]*\n)+)\n/;
    await simulator.waitForStdout(mailBlock);
    const shown = await simulator.waitForStdout(slackBlock);

    const [, reference, mail] = mailBlock.exec(shown) ?? [];
    expect(mail).toMatch(new RegExp(`^ {4}Reference: +${reference}$`, 'm'));
    expect(mail).toMatch(/^ {4}Status: +pending$/m);
    expect(mail).toMatch(/^ {4}Items:$/m);
    expect(mail).toMatch(/^ {6}\d+ × \S/m);
    expect(mail).toMatch(/^ {4}Event order\.created \S+, detected \d{4}-\d{2}-\d{2}T/m);

    const [, title, blocks] = slackBlock.exec(shown) ?? [];
    const lines = blocks?.split('\n').map((line) => line.trim());
    const slackReference = title?.split(' ').at(-1);
    expect(title).toMatch(/^(🆕 New order|✅ Completed|❌ Canceled) \S+$/);
    expect(lines?.[0]).toBe(title);
    expect(lines).toContain(`Reference:      ${slackReference}`);
    expect(lines?.some((line) => /^Establishment: +\S/.test(line))).toBe(true);
    expect(lines?.some((line) => /^Payment method: +(Cash|Card|Credit)$/.test(line))).toBe(true);
    expect(lines?.some((line) => /^Items \(\d+\)$/.test(line))).toBe(true);
    expect(lines?.some((line) => /^\d+ × \S/.test(line))).toBe(true);
    // Markup undone: no mrkdwn asterisks around labels, no escaped entities.
    expect(blocks).not.toMatch(/\*\w|&amp;|&lt;|&gt;/);
  });
});
