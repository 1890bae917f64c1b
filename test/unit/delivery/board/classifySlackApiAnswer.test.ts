// What each Slack Web API answer means for the board: ok with its ts, a rate limit to wait out, a deleted
// message to post again, a token or channel only a person can fix (saying what to do), Slack's own failure,
// and a refusal of the message itself. Nothing but the error word is ever quoted.
import { describe, expect, it } from 'vitest';
import { classifySlackApiAnswer } from '../../../../shared/delivery/slack/webApi/classifySlackApiAnswer.js';

const words = { tokenSecret: 'KITCHEN_SLACK_BOT_TOKEN', channel: 'C0123ABCD' };
const answer = (status: number, body: unknown, retryAfterMs?: number) =>
  classifySlackApiAnswer(
    'chat.update',
    status,
    typeof body === 'string' ? body : JSON.stringify(body),
    retryAfterMs,
    words,
  );

describe('classifySlackApiAnswer', () => {
  it('takes ok with its ts', () => {
    expect(answer(200, { ok: true, ts: '1.2' })).toEqual({ ok: true, ts: '1.2' });
  });

  it('waits out a 429 for its Retry-After, a minute when it gives none', () => {
    expect(answer(429, '', 7_000)).toMatchObject({
      ok: false,
      failure: { kind: 'rate_limited', retryAfterMs: 7_000 },
    });
    expect(answer(429, '')).toMatchObject({ failure: { kind: 'rate_limited', retryAfterMs: 60_000 } });
  });

  it('posts again what was deleted', () => {
    for (const error of ['message_not_found', 'cant_update_message'])
      expect(answer(200, { ok: false, error })).toMatchObject({
        failure: { kind: 'message_gone', code: error },
      });
  });

  it('asks a person for a new token, or to invite the app, in one line', () => {
    for (const error of ['invalid_auth', 'token_revoked', 'account_inactive'])
      expect(answer(200, { ok: false, error })).toMatchObject({
        failure: {
          kind: 'fix_by_hand',
          action: expect.stringContaining('put a new bot token in KITCHEN_SLACK_BOT_TOKEN'),
        },
      });
    expect(answer(200, { ok: false, error: 'not_in_channel' })).toMatchObject({
      failure: {
        kind: 'fix_by_hand',
        action: expect.stringContaining('invite the app to channel C0123ABCD'),
      },
    });
    for (const error of ['channel_not_found', 'is_archived'])
      expect(answer(200, { ok: false, error })).toMatchObject({
        failure: { kind: 'fix_by_hand', action: expect.stringContaining('C0123ABCD') },
      });
  });

  it('retries Slack failing, and refuses what Slack refused, quoting only its error word', () => {
    expect(answer(503, '<html>xoxb-secret</html>')).toMatchObject({ failure: { kind: 'transient' } });
    expect(JSON.stringify(answer(502, '<html>xoxb-secret</html>'))).not.toContain('xoxb');
    expect(answer(200, { ok: false, error: 'invalid_blocks' })).toMatchObject({
      failure: { kind: 'refused', code: 'invalid_blocks' },
    });
  });
});
