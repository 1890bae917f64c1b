// One way to name the config, run as real processes: status takes MEAL_NOTIFIER_CONFIG, check-config takes
// --config FILE as well as FILE, and -v prints the version. (How orders and establishments take a config,
// and a command given none, are pinned in process: test/integration/cli/configConnection.test.ts.)
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_VERSION } from '../../shared/version.js';
import { runCli } from '../support/runCli.js';

let dir: string;
let config: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'config-file-'));
  config = join(dir, 'notifier.json');
  await writeFile(
    config,
    JSON.stringify({
      $schema: './notifier.schema.json',
      api: { baseUrl: 'https://meals.example.org/api/v1/admin' },
      organizations: [
        {
          id: '3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
          name: 'North School',
          token: { env: 'NORTH_TOKEN' },
          timeZone: 'Europe/Lisbon',
        },
        {
          id: '16496821-5603-43c0-a1c0-b40d45c8b087',
          name: 'South Academy',
          token: { env: 'SOUTH_TOKEN' },
          timeZone: 'Europe/Lisbon',
        },
      ],
    }),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Independent processes: run side by side, CI's time is short.
describe.concurrent('naming the config', () => {
  it('status reads the config MEAL_NOTIFIER_CONFIG names', async () => {
    const result = await runCli(['status', '--json'], { MEAL_NOTIFIER_CONFIG: config });
    // Never polled: unhealthy, which says the config was found and read.
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { statePath: string; organizations: { name: string }[] };
    expect(report.statePath).toBe(join(dir, '.data', 'state.db'));
    expect(report.organizations.map(({ name }) => name)).toEqual(['North School', 'South Academy']);
  });

  it('check-config takes the file as --config FILE, as well as FILE', async () => {
    const result = await runCli(['check-config', '--config', config], {
      NORTH_TOKEN: 'north-token',
      SOUTH_TOKEN: 'south-token',
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('config OK: 2 organizations, 0 subscribers\n');
    expect(result.code).toBe(0);
  });

  it('-v prints the version', async () => {
    const result = await runCli(['-v']);
    expect(result).toEqual({ code: 0, stdout: `${PRODUCT_VERSION}\n`, stderr: '' });
  });
});
