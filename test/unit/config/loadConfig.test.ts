import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../shared/config/errors.js';
import { loadConfigFile, parseConfig, parseConfigText } from '../../../shared/config/loadConfig.js';
import { configWith, exampleConfig, NORTH_SCHOOL_ID } from '../../support/configFixtures.js';

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'config-test-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function writeConfig(name: string, text: string): Promise<string> {
  const path = join(directory, name);
  await writeFile(path, text);
  return path;
}

async function loadRefusal(path: string): Promise<ConfigError> {
  const error = await loadConfigFile(path).catch((thrown: unknown) => thrown);
  if (error instanceof ConfigError) return error;
  throw new Error(`expected a ConfigError, got ${String(error)}`);
}

describe('loadConfigFile', () => {
  it('reads and validates a config file', async () => {
    const path = await writeConfig('valid.json', JSON.stringify(exampleConfig(), null, 2));
    const config = await loadConfigFile(path);
    expect(config.organizations[0]?.id).toBe(NORTH_SCHOOL_ID);
    expect(config.subscribers.map((subscriber) => subscriber.id)).toEqual([
      'automation',
      'kitchen-north',
      'office',
    ]);
  });

  it('says in one line that the file does not exist', async () => {
    const path = join(directory, 'missing.json');
    const error = await loadRefusal(path);
    expect(error.message).toBe(`config file ${path} not found`);
    expect(error.file).toBe(path);
    expect(error.problems).toEqual([{ path: '$', message: `config file ${path} not found` }]);
  });

  it('says when the path is a directory', async () => {
    expect((await loadRefusal(directory)).message).toBe(
      `config file ${directory} is a directory, not a file`,
    );
  });

  it('gives the line and column of a JSON syntax error, without quoting the text', async () => {
    const path = await writeConfig('broken.json', '{\n  "api": {\n    "baseUrl": hunter2\n  }\n}\n');
    const error = await loadRefusal(path);
    expect(error.message).toBe(
      `${path}: invalid JSON at line 3, column 16: unquoted text; strings and property names must be in double quotes`,
    );
    expect(error.message).not.toContain('hunter2');
  });

  it('says when the file is empty', async () => {
    const path = await writeConfig('empty.json', '\n  \n');
    expect((await loadRefusal(path)).message).toBe(`${path}: the file is empty`);
  });

  it('accepts a file saved with a byte-order mark', async () => {
    const path = await writeConfig('bom.json', `\uFEFF${JSON.stringify(exampleConfig())}`);
    expect((await loadConfigFile(path)).api.baseUrl).toBe('https://example.test/api/v1/admin');
  });

  it('lists every problem under the file name, one per line', async () => {
    const json = configWith(['organizations', 0, 'timeZone'], 'Europe/Lisbn');
    configWith(['subscribers', 1, 'id'], 'office', json);
    const path = await writeConfig('config.json', JSON.stringify(json));
    const error = await loadRefusal(path);
    expect(error.message).toBe(
      [
        `${path}: 2 problems`,
        '  $.organizations[0].timeZone: "Europe/Lisbn" is not an IANA time zone (did you mean "Europe/Lisbon"?)',
        '  $.subscribers[2].id: duplicate subscriber id "office"',
      ].join('\n'),
    );
  });
});

describe('parseConfig and parseConfigText', () => {
  it('name the source in the message when given one', () => {
    expect(() => parseConfig({}, 'inline.json')).toThrow(
      /^inline\.json: 2 problems\n {2}\$\.api: required\n/,
    );
  });

  it('say "config" when there is no file', () => {
    expect(() => parseConfig(configWith(['api', 'requestsPerMinute'], 0))).toThrow(
      'config: 1 problem\n  $.api.requestsPerMinute: must be a whole number from 1 to 1000, got 0',
    );
  });

  it('refuses JSON text with a syntax error as a ConfigError', () => {
    const error = (() => {
      try {
        parseConfigText('{"api": {},}');
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      { path: '$', message: 'invalid JSON at line 1, column 11: trailing comma before "}"' },
    ]);
  });

  it('parses valid JSON text', () => {
    expect(parseConfigText(JSON.stringify(exampleConfig())).state.path).toBe('.data/state.db');
  });

  it('accept a "$schema" key for editors, and leave it out of the parsed config', () => {
    const config = parseConfig({ $schema: './notifier.schema.json', ...exampleConfig() });
    expect(config).toEqual(parseConfig(exampleConfig()));
    expect(config).not.toHaveProperty('$schema');
    expect(() => parseConfig({ $schema: 42, ...exampleConfig() })).toThrow('$.$schema');
  });
});
