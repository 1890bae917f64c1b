// The Slack app (the kitchen's board) tried as a new user would, with no Slack workspace: `simulate
// --receivers --show full` serves a stand-in of Slack's Web API and prints its apiUrl, a bot token and a
// config with a Slack app subscriber; what is posted and edited there is shown as the kitchen sees the
// channel; and `check-config --ping`, a real process, says in one line what is wrong with the token or
// the channel, against the stand-in, as it would against Slack.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningCli, runCli, startCli } from '../support/runCli.js';

let simulator: RunningCli;
let banner: string;
let env: Record<string, string>;
let apiUrl: string;
let controlUrl: string;
let dir: string;
let config: string;

beforeAll(async () => {
  simulator = startCli([
    'simulate',
    '--port',
    '0',
    '--speed',
    '0',
    '--orders',
    '0',
    '--receivers',
    '--show',
    'full',
  ]);
  banner = await simulator.waitForStdout(/"smtp": [^\n]*\n\}\n/);
  env = Object.fromEntries(
    [...banner.matchAll(/^export (\w+)=(\S+)$/gm)].map((m) => [m[1] ?? '', m[2] ?? '']),
  );
  apiUrl = /apiUrl (http:\/\/127\.0\.0\.1:\d+\/api)/.exec(banner)?.[1] ?? '';
  controlUrl = /curl -X POST (\S+)\/rate-limit/.exec(banner)?.[1] ?? '';
  dir = await mkdtemp(join(tmpdir(), 'slack-app-'));
  // The config the simulator printed, saved as the user would.
  config = join(dir, 'notifier.json');
  await writeFile(config, /save this as notifier\.json[^\n]*\n(\{\n[\s\S]*?\n\})\n/.exec(banner)?.[1] ?? '');
});

afterAll(async () => {
  expect(await simulator.stop('SIGINT')).toBe(0);
  await rm(dir, { recursive: true, force: true });
});

async function slack(
  method: string,
  args: Record<string, unknown>,
  token = env.KITCHEN_SLACK_BOT_TOKEN,
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back.
): Promise<any> {
  const response = await fetch(`${apiUrl}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${token}` },
    body: JSON.stringify(args),
  });
  return response.json();
}

async function control(action: string, body: Record<string, unknown> = {}): Promise<void> {
  const response = await fetch(`${controlUrl}/${action}`, { method: 'POST', body: JSON.stringify(body) });
  expect(response.status).toBe(200);
}

describe('simulate --receivers with a Slack app', () => {
  it('prints the Web API stand-in, its bot token, and a Slack app subscriber reading the token from the variable it exports', () => {
    expect(apiUrl).not.toBe('');
    expect(env.KITCHEN_SLACK_BOT_TOKEN).toMatch(/^xoxb-simulator-[0-9a-f]+$/);
    expect(banner).toContain(
      `{ "id": "kitchen-board", "type": "slack", "botToken": { "env": "KITCHEN_SLACK_BOT_TOKEN" }, "channel": "C0KITCHEN1", "apiUrl": "${apiUrl}" }`,
    );
  });

  it('--show full shows each board as it stands, with its thread, edits applied and control characters shown', async () => {
    const board = await slack('chat.postMessage', {
      channel: 'C0KITCHEN1',
      text: 'Board',
      blocks: [
        {
          type: 'header',
          text: { type: 'plain_text', text: 'Main Canteen · Sun 29 Nov\u001b]52;c;aGk=\u0007' },
        },
        { type: 'section', text: { type: 'mrkdwn', text: '12 orders to cook, 1 canceled' } },
      ],
    });
    expect(board.ok).toBe(true);
    const reply = await slack('chat.postMessage', {
      channel: 'C0KITCHEN1',
      text: 'NS-1042 new',
      thread_ts: board.ts,
    });
    await slack('chat.update', {
      channel: 'C0KITCHEN1',
      ts: reply.ts,
      text: 'done',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '✅ NS-1042 completed' } }],
    });
    await slack('chat.update', {
      channel: 'C0KITCHEN1',
      ts: board.ts,
      text: 'Board',
      blocks: [
        {
          type: 'header',
          text: { type: 'plain_text', text: 'Main Canteen · Sun 29 Nov\u001b]52;c;aGk=\u0007' },
        },
        { type: 'section', text: { type: 'mrkdwn', text: '11 orders to cook, 1 canceled' } },
      ],
    });
    const output = await simulator.waitForStdout(/✅ NS-1042 completed\n/);
    const last = output.slice(output.lastIndexOf(`[slack app #kitchen] board ${board.ts}`));
    expect(last).toBe(
      [
        `[slack app #kitchen] board ${board.ts} (edited), 1 reply`,
        // The ESC … BEL a name could carry is shown, never sent to the terminal.
        '    Main Canteen · Sun 29 Nov\\x1b]52;c;aGk=\\x07',
        '    11 orders to cook, 1 canceled',
        '    ',
        `    ↳ reply ${reply.ts} (edited)`,
        '        ✅ NS-1042 completed',
        '',
        '',
      ].join('\n'),
    );
    expect(output).not.toContain('\u001b');
  });

  it('check-config --ping takes the printed config as it is: the bot token works and the app is in the channel', async () => {
    const run = await runCli(['check-config', config, '--ping'], env);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(
      'subscriber "kitchen-board" (Slack app): OK, Slack takes the bot token as @kitchen-board in Simulated Kitchen Workspace, and the app is in #kitchen C0KITCHEN1',
    );
    expect(run.code).toBe(0);
  });

  it('check-config --ping says in one line to invite the app when it was removed from the channel', async () => {
    await control('kick');
    try {
      const run = await runCli(['check-config', config, '--ping'], env);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(
        'subscriber "kitchen-board" (Slack app): the Slack app is not in the channel (conversations.info: not_in_channel): invite the app to channel C0KITCHEN1',
      );
      expect(run.stderr).toContain('but Slack app subscriber "kitchen-board" failed the ping');
    } finally {
      await control('invite');
    }
  });

  it('check-config --ping says to put a new token when Slack refuses it, and never prints the token', async () => {
    const run = await runCli(['check-config', config, '--ping'], {
      ...env,
      KITCHEN_SLACK_BOT_TOKEN: 'xoxb-simulator-not-issued',
    });
    expect(run.code).toBe(1);
    const line = run.stdout.split('\n').find((text) => text.startsWith('subscriber "kitchen-board"'));
    expect(line).toBe(
      'subscriber "kitchen-board" (Slack app): Slack refused the bot token (auth.test: invalid_auth): put a new bot token in KITCHEN_SLACK_BOT_TOKEN (the Slack app\'s OAuth & Permissions page)',
    );
    expect(`${run.stdout}${run.stderr}`).not.toContain('xoxb-simulator-not-issued');
  });

  it('check-config --ping says a revoked token and an archived channel apart', async () => {
    const issued = (await (await fetch(`${controlUrl}/token`, { method: 'POST' })).json()) as {
      token: string;
    };
    const fresh = { ...env, KITCHEN_SLACK_BOT_TOKEN: String(issued.token) };
    await control('archive');
    try {
      const archived = await runCli(['check-config', config, '--ping'], fresh);
      expect(archived.code).toBe(1);
      expect(archived.stdout).toContain('the channel is archived (conversations.info: is_archived)');
    } finally {
      await control('archive', { archived: false });
    }
    await control('revoke', { token: issued.token });
    const revoked = await runCli(['check-config', config, '--ping'], fresh);
    expect(revoked.stdout).toContain(
      'the bot token was revoked (auth.test: token_revoked): put a new bot token',
    );
  });

  it('send-test to the Slack app subscriber posts a sample board marked as a test, the sample order a reply in its thread', async () => {
    const run = await runCli(['send-test', '--config', config, '--subscriber', 'kitchen-board'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const reference = /test order\.created (TEST-\w+): delivered/.exec(run.stdout)?.[1] ?? 'no reference';
    const output = await simulator.waitForStdout(
      new RegExp(`↳ reply \\S+\n {8}🧪 TEST · 🆕 New order ${reference}\n`),
    );
    const board = output.slice(output.lastIndexOf('[slack app #kitchen] board'));
    expect(board).toMatch(
      /^\[slack app #kitchen\] board \S+ \(as posted\), 1 reply\n {4}🧪 TEST · 🍽️ Sample establishment · /,
    );
    expect(board).toContain(`🚨 ${reference}: Allergic to peanuts`);
  });
});
