import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CliUsageError, reportFailure } from '../../../cli/errors.js';
import { UnauthorizedError } from '../../../shared/api/errors.js';
import { ConfigError } from '../../../shared/config/errors.js';
import { StateFileError, StateFileTooNewError } from '../../../shared/store/errors.js';
import { SqliteAddonMismatchError, toStoreError } from '../../../shared/store/sqlite/sqliteErrors.js';

function run(error: unknown, format: 'human' | 'json' = 'human'): { code: number; text: string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { code: reportFailure(error, stream, format), text };
}

const configError = new ConfigError('notifier.json', [
  { path: '$.organizations[0].timeZone', message: '"Europe/Lisbn" is not an IANA time zone' },
]);

describe('reportFailure', () => {
  it('writes one human line per user mistake and picks the exit code by kind', () => {
    expect(run(new CliUsageError('give --config'))).toEqual({
      code: 2,
      text: 'meal-notifier: give --config\n',
    });
    const unauthorized = new UnauthorizedError({ organization: 'North School', endpoint: 'GET /orders' });
    expect(run(unauthorized).code).toBe(1);
    expect(run(configError).text).toBe(
      'meal-notifier: notifier.json: 1 problem\n  $.organizations[0].timeZone: "Europe/Lisbn" is not an IANA time zone\n',
    );
  });

  it('exits 2 for a state file that starting again cannot open, 1 for one it may', () => {
    const denied = new StateFileError('/var/lib/meal-notifier/state.db', 'permission denied (…)', {
      retryable: false,
    });
    expect(run(denied)).toEqual({
      code: 2,
      text: 'meal-notifier: cannot open state file /var/lib/meal-notifier/state.db: permission denied (…)\n',
    });
    const locked = new StateFileError('/var/lib/meal-notifier/state.db', 'locked', { retryable: true });
    expect(run(locked).code).toBe(1);
  });

  it('writes one JSON object for a runner logging as JSON, with the config problems as data', () => {
    const { code, text } = run(configError, 'json');
    expect(code).toBe(2);
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(text)).toMatchObject({
      level: 'error',
      kind: 'failure',
      exitCode: 2,
      problems: [{ path: '$.organizations[0].timeZone', message: '"Europe/Lisbn" is not an IANA time zone' }],
    });
  });

  it('exits 2 for a state file nothing but another version or file can open, with the versions as data', () => {
    const tooNew = new StateFileTooNewError('/var/lib/meal-notifier/state.db', 4, 3);
    expect(run(tooNew)).toEqual({ code: 2, text: `meal-notifier: ${tooNew.message}\n` });
    expect(JSON.parse(run(tooNew, 'json').text)).toMatchObject({
      exitCode: 2,
      statePath: '/var/lib/meal-notifier/state.db',
      fileSchemaVersion: 4,
      programSchemaVersion: 3,
    });
    // As better-sqlite3 fails to load when it was built for another Node.js.
    const dlopen = Object.assign(
      new Error(
        "The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\n" +
          'was compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of ' +
          'Node.js requires\nNODE_MODULE_VERSION 137. Please try re-compiling or re-installing',
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    const mismatch = toStoreError(dlopen, 'open', undefined);
    expect(mismatch).toBeInstanceOf(SqliteAddonMismatchError);
    expect(run(mismatch)).toEqual({
      code: 2,
      text:
        "meal-notifier: state store open failed: better-sqlite3's native addon was built for another Node.js " +
        `(NODE_MODULE_VERSION 115; Node.js ${process.version} needs 137): run \`npm rebuild better-sqlite3\` ` +
        'with this Node.js, or run the Node.js it was built for\n',
    });
  });

  it('keeps the stack of an unexpected failure, which a bug report needs', () => {
    const { code, text } = run(new TypeError('boom'), 'json');
    expect(code).toBe(1);
    expect(JSON.parse(text)).toMatchObject({
      message: 'unexpected failure, please report it',
      stack: expect.stringContaining('TypeError: boom'),
    });
  });
});
