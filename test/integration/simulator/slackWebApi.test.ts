// The simulator's stand-in for Slack's Web API, over real HTTP on 127.0.0.1: what a Slack app client sees
// (bearer token, JSON and form bodies, ts, threads, edits, Slack's error codes with HTTP 200, 429 with
// Retry-After) and the controls a test uses to bring about what a person would do in Slack.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SlackWebApiStandIn, startSlackWebApi } from '../../../simulator/inbox/slackWebApiServer.js';
import { SLACK_IDENTITY } from '../../../simulator/inbox/slackWorkspace.js';

const T0 = Date.UTC(2026, 10, 29, 9, 0, 0);
let clock = T0;
let slack: SlackWebApiStandIn;

beforeEach(async () => {
  clock = T0;
  slack = await startSlackWebApi({ now: () => clock });
});
afterEach(() => slack.close());

interface Answer {
  status: number;
  retryAfter: string | null;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back.
  body: any;
}

async function api(
  method: string,
  args: Record<string, unknown>,
  token: string | null = slack.token,
): Promise<Answer> {
  const response = await fetch(`${slack.apiUrl}/${method}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(args),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: await response.json(),
  };
}

const BLOCKS = [
  { type: 'header', text: { type: 'plain_text', text: 'Cantina · Sun 29 Nov' } },
  { type: 'section', text: { type: 'mrkdwn', text: '*3 orders*' } },
];

describe('the Slack Web API stand-in', () => {
  it('posts a board and a reply in its thread, with increasing ts, and edits the reply in place', async () => {
    const board = await api('chat.postMessage', { channel: slack.channel, text: 'Board', blocks: BLOCKS });
    expect(board.status).toBe(200);
    expect(board.body).toMatchObject({
      ok: true,
      channel: slack.channel,
      message: { type: 'message', text: 'Board', blocks: BLOCKS, bot_id: SLACK_IDENTITY.botId },
    });
    expect(board.body.ts).toMatch(/^\d{10}\.\d{6}$/);

    const reply = await api('chat.postMessage', {
      channel: slack.channel,
      text: 'NS-1 new',
      thread_ts: board.body.ts,
      reply_broadcast: true,
    });
    expect(reply.body).toMatchObject({
      ok: true,
      message: { thread_ts: board.body.ts, subtype: 'thread_broadcast' },
    });
    // Same clock: still unique and increasing.
    expect(reply.body.ts > board.body.ts).toBe(true);

    const edited = await api('chat.update', {
      channel: slack.channel,
      ts: reply.body.ts,
      text: 'NS-1 done ✅',
    });
    expect(edited.body).toMatchObject({
      ok: true,
      ts: reply.body.ts,
      channel: slack.channel,
      text: 'NS-1 done ✅',
    });
    const thread = slack.workspace.thread(slack.channel, board.body.ts);
    expect(thread.parent?.text).toBe('Board');
    expect(thread.replies.map((message) => [message.text, message.editedTs !== undefined])).toEqual([
      ['NS-1 done ✅', true],
    ]);
  });

  it('keeps the blocks chat.update leaves out, and replaces them when it sends new ones', async () => {
    const board = await api('chat.postMessage', { channel: slack.channel, text: 'Board', blocks: BLOCKS });
    await api('chat.update', { channel: slack.channel, ts: board.body.ts, text: 'Board 2' });
    expect(slack.workspace.thread(slack.channel, board.body.ts).parent?.blocks).toEqual(BLOCKS);
    await api('chat.update', {
      channel: slack.channel,
      ts: board.body.ts,
      text: 'Board 3',
      blocks: [BLOCKS[0]],
    });
    expect(slack.workspace.thread(slack.channel, board.body.ts).parent?.blocks).toEqual([BLOCKS[0]]);
  });

  it('takes form-encoded calls with the token as a field and blocks as a JSON string', async () => {
    const response = await fetch(`${slack.apiUrl}/chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: slack.token,
        channel: slack.channel,
        text: 'hi',
        blocks: JSON.stringify(BLOCKS),
      }),
    });
    const body = await response.json();
    expect(body).toMatchObject({ ok: true, message: { text: 'hi', blocks: BLOCKS } });
  });

  it('answers a missing, unknown or revoked token with HTTP 200 and Slack error codes', async () => {
    expect((await api('auth.test', {}, null)).body).toEqual({ ok: false, error: 'not_authed' });
    const unknown = await api('auth.test', {}, 'xoxb-not-a-token');
    expect(unknown).toMatchObject({ status: 200, body: { ok: false, error: 'invalid_auth' } });
    // A JSON body cannot carry the token: Slack reads it from the header only.
    const inBody = await fetch(`${slack.apiUrl}/auth.test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ token: slack.token }),
    });
    expect(await inBody.json()).toEqual({ ok: false, error: 'not_authed' });

    expect((await api('auth.test', {})).body).toMatchObject({
      ok: true,
      user_id: SLACK_IDENTITY.userId,
      bot_id: SLACK_IDENTITY.botId,
    });
    slack.workspace.revokeToken(slack.token);
    expect((await api('chat.postMessage', { channel: slack.channel, text: 'x' })).body).toEqual({
      ok: false,
      error: 'token_revoked',
    });
    const fresh = slack.workspace.issueToken();
    expect((await api('chat.postMessage', { channel: slack.channel, text: 'x' }, fresh)).body.ok).toBe(true);
  });

  it('says channel_not_found, not_in_channel and is_archived, and conversations.info shows membership', async () => {
    expect((await api('chat.postMessage', { channel: 'C0NOSUCH1', text: 'x' })).body.error).toBe(
      'channel_not_found',
    );
    expect((await api('conversations.info', { channel: 'C0NOSUCH1' })).body.error).toBe('channel_not_found');

    slack.workspace.setBotMembership(slack.channel, false);
    expect((await api('chat.postMessage', { channel: slack.channel, text: 'x' })).body.error).toBe(
      'not_in_channel',
    );
    expect((await api('conversations.info', { channel: slack.channel })).body).toMatchObject({
      ok: true,
      channel: {
        id: slack.channel,
        name: 'kitchen',
        is_member: false,
        is_archived: false,
        is_private: false,
      },
    });
    slack.workspace.setBotMembership(slack.channel, true);

    slack.workspace.setArchived(slack.channel, true);
    expect((await api('chat.postMessage', { channel: slack.channel, text: 'x' })).body.error).toBe(
      'is_archived',
    );
    expect((await api('conversations.info', { channel: slack.channel })).body.channel.is_archived).toBe(true);

    // A private channel the app is not in is invisible to it.
    slack.workspace.addChannel({ id: 'G0SECRET1', name: 'office', isPrivate: true, botIsMember: false });
    expect((await api('conversations.info', { channel: 'G0SECRET1' })).body.error).toBe('channel_not_found');
  });

  it('answers message_not_found for a deleted message and cant_update_message for one the app may not edit', async () => {
    const board = await api('chat.postMessage', { channel: slack.channel, text: 'Board' });
    const reply = await api('chat.postMessage', {
      channel: slack.channel,
      text: 'NS-1',
      thread_ts: board.body.ts,
    });
    slack.workspace.deleteMessage(slack.channel, reply.body.ts);
    expect((await api('chat.update', { channel: slack.channel, ts: reply.body.ts, text: 'y' })).body).toEqual(
      {
        ok: false,
        error: 'message_not_found',
      },
    );
    slack.workspace.lockMessage(slack.channel, board.body.ts);
    expect(
      (await api('chat.update', { channel: slack.channel, ts: board.body.ts, text: 'y' })).body.error,
    ).toBe('cant_update_message');
  });

  it('refuses what Slack refuses: no text, bad blocks, a malformed thread_ts, an unknown method', async () => {
    expect((await api('chat.postMessage', { channel: slack.channel })).body.error).toBe('no_text');
    expect(
      (await api('chat.postMessage', { channel: slack.channel, text: 'x', blocks: [{ text: 'no type' }] }))
        .body.error,
    ).toBe('invalid_blocks');
    expect(
      (await api('chat.postMessage', { channel: slack.channel, text: 'x', thread_ts: '12' })).body.error,
    ).toBe('invalid_thread_ts');
    const unknown = await api('chat.delete', { channel: slack.channel });
    expect(unknown).toMatchObject({ status: 404, body: { ok: false, error: 'unknown_method' } });
  });

  it('warns about a JSON body without a charset, as Slack does, and still answers', async () => {
    const response = await fetch(`${slack.apiUrl}/auth.test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${slack.token}` },
      body: '{}',
    });
    expect(await response.json()).toMatchObject({ ok: true, warning: 'missing_charset' });
  });

  it('paces chat.postMessage per channel: past a short burst, 429 with Retry-After until a second has passed', async () => {
    const posted = [];
    for (let i = 0; i < 4; i += 1)
      posted.push(await api('chat.postMessage', { channel: slack.channel, text: `m${i}` }));
    expect(posted.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(posted[3]).toMatchObject({ retryAfter: '3', body: { ok: false, error: 'ratelimited' } });
    // Another channel has its own allowance.
    slack.workspace.addChannel({ id: 'C0OTHER01', name: 'other' });
    expect((await api('chat.postMessage', { channel: 'C0OTHER01', text: 'x' })).status).toBe(200);
    clock += 3_000;
    expect((await api('chat.postMessage', { channel: slack.channel, text: 'later' })).status).toBe(200);
  });

  it('keeps chat.update within Tier 3: the 51st edit in a minute is refused', async () => {
    const board = await api('chat.postMessage', { channel: slack.channel, text: 'Board' });
    for (let i = 0; i < 50; i += 1) {
      expect(
        (await api('chat.update', { channel: slack.channel, ts: board.body.ts, text: `v${i}` })).status,
      ).toBe(200);
    }
    const refused = await api('chat.update', { channel: slack.channel, ts: board.body.ts, text: 'v50' });
    expect(refused).toMatchObject({ status: 429, retryAfter: '60' });
  });

  it('forces a 429 with a Retry-After and marks a call that came back too early', async () => {
    slack.forceRateLimit({ method: 'chat.update', retryAfterSeconds: 30 });
    const board = await api('chat.postMessage', { channel: slack.channel, text: 'Board' });
    const first = await api('chat.update', { channel: slack.channel, ts: board.body.ts, text: 'v1' });
    expect(first).toMatchObject({ status: 429, retryAfter: '30' });
    clock += 10_000;
    const early = await api('chat.update', { channel: slack.channel, ts: board.body.ts, text: 'v1' });
    expect(early).toMatchObject({ status: 429, retryAfter: '20' });
    clock += 20_000;
    expect((await api('chat.update', { channel: slack.channel, ts: board.body.ts, text: 'v1' })).status).toBe(
      200,
    );
    expect(slack.calls().map((call) => [call.method, call.status, call.early ?? false])).toEqual([
      ['chat.postMessage', 200, false],
      ['chat.update', 429, false],
      ['chat.update', 429, true],
      ['chat.update', 200, false],
    ]);
  });

  it('serves the same controls as JSON under /_simulator/slack/, outside the API path', async () => {
    const board = await api('chat.postMessage', { channel: slack.channel, text: 'Board' });
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back.
    const post = async (action: string, body: unknown): Promise<any> =>
      (await fetch(`${slack.controlUrl}/${action}`, { method: 'POST', body: JSON.stringify(body) })).json();
    expect(await post('delete', { ts: board.body.ts })).toEqual({ ok: true });
    expect(
      (await api('chat.update', { channel: slack.channel, ts: board.body.ts, text: 'x' })).body.error,
    ).toBe('message_not_found');
    expect(await post('rate-limit', { retryAfterSeconds: 7 })).toEqual({ ok: true });
    expect((await api('auth.test', {})).retryAfter).toBe('7');
    clock += 7_000;
    expect(await post('kick', {})).toEqual({ ok: true });
    expect((await api('chat.postMessage', { channel: slack.channel, text: 'x' })).body.error).toBe(
      'not_in_channel',
    );
    expect(await post('invite', {})).toEqual({ ok: true });
    expect(await post('archive', {})).toEqual({ ok: true });
    expect((await api('chat.postMessage', { channel: slack.channel, text: 'x' })).body.error).toBe(
      'is_archived',
    );
    expect(await post('revoke', {})).toEqual({ ok: true });
    expect((await api('auth.test', {})).body.error).toBe('token_revoked');
    const issued = await post('token', {});
    expect((await api('auth.test', {}, issued.token)).body.ok).toBe(true);
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back.
    const listed: any = await (await fetch(`${slack.controlUrl}/channels`)).json();
    expect(listed.channels[0]).toMatchObject({ id: slack.channel, is_archived: true, messages: [] });
    // The controls never answer under the API's path.
    expect((await api('_simulator', {})).status).toBe(404);
  });
});
