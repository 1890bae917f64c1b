import { describe, expect, it } from 'vitest';
import { CliUsageError, MetricsListenError, reportFailure } from '../../../cli/errors.js';
import { NetworkError, UnauthorizedError } from '../../../shared/api/errors.js';
import { ConfigError, MissingSecretError } from '../../../shared/config/errors.js';
import { WebhookSecretError } from '../../../shared/delivery/errors.js';
import {
  EXIT_FAILURE,
  EXIT_USAGE,
  type ExitCode,
  NotifierError,
} from '../../../shared/errors/notifierError.js';
import { PrepSummaryInputError } from '../../../shared/events/errors.js';
import {
  ReplayRefusedError,
  StackAccessError,
  StackOutputsError,
} from '../../../shared/operations/errors.js';
import {
  StateFileError,
  StateFileTooNewError,
  StateStoreError,
  StoreContentionError,
} from '../../../shared/store/errors.js';
import { SqliteAddonMismatchError, toStoreError } from '../../../shared/store/sqlite/sqliteErrors.js';
import { captureSink } from '../../support/sinkCapture.js';

function run(error: unknown, format: 'human' | 'json' = 'human'): { code: number; text: string } {
  const stderr = captureSink();
  const code = reportFailure(error, stderr.sink, format);
  return { code, text: stderr.text() };
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

  it('ends on a class it has never heard of by that class’s own exit code, in one line without a stack', () => {
    class PantryClosedError extends NotifierError {
      override get exitCode(): ExitCode {
        return EXIT_USAGE;
      }

      override get userFacing() {
        return true;
      }
    }
    const error = new PantryClosedError('the pantry is closed; open it in pantry.json', {
      cause: new Error('EACCES'),
    });
    expect(run(error)).toEqual({
      code: 2,
      text: 'meal-notifier: the pantry is closed; open it in pantry.json\n',
    });
    const json = run(error, 'json');
    expect(json.code).toBe(2);
    expect(json.text.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(json.text)).not.toHaveProperty('stack');
  });

  it('reports any other error as a bug, with its stack and the causes behind it', () => {
    const { code, text } = run(new RangeError('index 7 out of range', { cause: new Error('the root') }));
    expect(code).toBe(1);
    expect(text).toMatch(
      /^meal-notifier: unexpected failure, please report it:\nRangeError: index 7 out of range\n\s+at /,
    );
    expect(text).toContain('caused by: Error: the root');
    // One of ours that says it is not for a person (a broken invariant) is a bug as well.
    const invariant = new PrepSummaryInputError('e-1', '2026-11-28', 'an order of another day');
    expect(run(invariant).text).toMatch(
      /^meal-notifier: unexpected failure, please report it:\nPrepSummaryInputError: /,
    );
    expect(run('thrown text').text).toBe(
      'meal-notifier: unexpected failure, please report it:\nthrown text\n',
    );
  });

  const context = { organization: 'North School', endpoint: 'GET /orders' };
  const statePath = '/var/lib/meal-notifier/state.db';
  it.each<[string, unknown, number]>([
    ['a usage mistake', new CliUsageError('give --config'), EXIT_USAGE],
    ['a metrics port taken', new MetricsListenError('127.0.0.1', 9464, 'port in use'), EXIT_USAGE],
    ['a config problem', configError, EXIT_USAGE],
    ['an unset secret variable', new MissingSecretError('NORTH_TOKEN'), EXIT_USAGE],
    ['a subscriber setting', new WebhookSecretError('is empty', { subscriberId: 'ops' }), EXIT_USAGE],
    ['a refused replay', new ReplayRefusedError('no subscriber "x" in the config'), EXIT_USAGE],
    [
      'a state file never openable',
      new StateFileError(statePath, 'denied', { retryable: false }),
      EXIT_USAGE,
    ],
    ['a state file from a newer version', new StateFileTooNewError(statePath, 4, 3), EXIT_USAGE],
    ['a rejected token', new UnauthorizedError(context), EXIT_FAILURE],
    ['a network failure', new NetworkError(context, new Error('ECONNRESET')), EXIT_FAILURE],
    ['a state file busy now', new StateFileError(statePath, 'locked', { retryable: true }), EXIT_FAILURE],
    ['a store failure', new StateStoreError('commitChange', 'north', 'disk I/O error'), EXIT_FAILURE],
    ['a contended store', new StoreContentionError('commitChange', 'north', 'busy'), EXIT_FAILURE],
    ['an AWS call on the stack', new StackAccessError('the state table', 'AccessDenied'), EXIT_FAILURE],
    ['a missing stack output', new StackOutputsError('stack has no StateTableName output'), EXIT_FAILURE],
  ])('ends on %s with one line and the exit code it always had', (_what, error, code) => {
    expect(run(error)).toEqual({ code, text: `meal-notifier: ${(error as Error).message}\n` });
  });
});
