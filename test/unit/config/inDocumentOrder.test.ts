import { describe, expect, it } from 'vitest';
import { inDocumentOrder } from '../../../shared/config/configProblems.js';

describe('inDocumentOrder', () => {
  it('orders problems from several checks as their places appear in the file', () => {
    const json = {
      organizations: [{ id: 'x', token: {} }],
      subscribers: [
        { id: 'a', url: 'u', secret: {} },
        { id: 'b', webhookUrl: {} },
      ],
      api: {},
      state: { path: 'x' },
    };
    const problems = [
      { path: '$.api.baseUrl', message: 'required' },
      { path: '$.subscribers[1].webhookUrl', message: 'unset' },
      { path: '$.state.path', message: 'not writable' },
      { path: '$.organizations[0].token', message: 'unset' },
      { path: '$.subscribers[0].secret', message: 'unset' },
      { path: '$.subscribers[0].url', message: 'bad' },
      { path: '$.subscribers[0].url', message: 'also bad' },
    ];
    expect(inDocumentOrder(problems, json).map(({ path, message }) => `${path} ${message}`)).toEqual([
      '$.organizations[0].token unset',
      '$.subscribers[0].url bad',
      '$.subscribers[0].url also bad',
      '$.subscribers[0].secret unset',
      '$.subscribers[1].webhookUrl unset',
      '$.api.baseUrl required',
      '$.state.path not writable',
    ]);
  });

  it('puts a key the file lacks after its siblings, and a whole-file problem first', () => {
    const problems = [
      { path: '$.smtp', message: 'required' },
      { path: '$["odd key"]', message: 'unknown key' },
      { path: '$', message: 'whole file' },
    ];
    expect(inDocumentOrder(problems, { 'odd key': 1, api: {} }).map(({ path }) => path)).toEqual([
      '$',
      '$["odd key"]',
      '$.smtp',
    ]);
  });

  it('puts an unknown key where the key is written, not before its whole object', () => {
    const json = { organizations: [{ id: 'x', timeZone: 'Europe/Lisbn', pollIntervalSecond: 10 }] };
    const problems = [
      {
        path: '$.organizations[0]',
        message: 'unknown key "pollIntervalSecond" (did you mean "pollIntervalSeconds"?)',
        place: '$.organizations[0].pollIntervalSecond',
      },
      { path: '$.organizations[0].name', message: 'required' },
      { path: '$.organizations[0].timeZone', message: 'not an IANA time zone' },
      { path: '$.organizations[0].id', message: 'not a uuid' },
    ];
    expect(
      inDocumentOrder(problems, json).map(({ path, message }) => `${path} ${message.slice(0, 15)}`),
    ).toEqual([
      '$.organizations[0].id not a uuid',
      '$.organizations[0].timeZone not an IANA tim',
      '$.organizations[0] unknown key "po',
      '$.organizations[0].name required',
    ]);
  });
});
