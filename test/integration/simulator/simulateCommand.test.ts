import { describe, expect, it } from 'vitest';
import { simulateCommand } from '../../../cli/commands/simulate.js';
import { CliUsageError } from '../../../cli/errors.js';
import { parseConfig } from '../../../shared/config/loadConfig.js';
import { isoWeekday, zonedInstant } from '../../../shared/time/zonedTime.js';
import type { RunningSimulator } from '../../../simulator/startSimulator.js';
import { captureSink } from '../../support/sinkCapture.js';

/** The JSON config the banner prints, from its opening to its closing brace. */
function printedConfig(text: string): string {
  const start = text.indexOf('\n{\n');
  const end = text.indexOf('\n}\n', start);
  return text.slice(start + 1, end + 2);
}

async function runUntilStarted(args: string[]) {
  const stdout = captureSink();
  const stop = new AbortController();
  let started: (sim: RunningSimulator) => void = () => {};
  const simulator = new Promise<RunningSimulator>((resolve) => {
    started = resolve;
  });
  const command = simulateCommand({
    stdout: stdout.sink,
    stopSignal: stop.signal,
    onStarted: started,
  });
  command.exitOverride();
  const finished = command.parseAsync(args, { from: 'user' });
  return {
    output: stdout.text,
    stop,
    finished,
    sim: await Promise.race([simulator, finished.then(() => undefined)]),
  };
}

describe('meal-notifier simulate', () => {
  it('prints the base URL, organization and tokens as shell lines that work against the simulator', async () => {
    const { output, stop, finished, sim } = await runUntilStarted(['--port', '0', '--seed', '7']);
    if (!sim) throw new Error('the simulator did not start');
    const lines = output().split('\n');
    expect(lines[0]).toBe(`Admin API simulator (seed 7) listening on ${sim.baseUrl}`);
    const exported = Object.fromEntries(
      lines
        .filter((line) => line.startsWith('export '))
        .map((line) => line.slice(7).split('=') as [string, string]),
    );
    const south = sim.access.list().find((grant) => grant.token !== sim.token);
    expect(exported).toEqual({
      MEAL_API_BASE_URL: sim.baseUrl,
      MEAL_API_ORGANIZATION: sim.organization.id,
      MEAL_API_TOKEN: sim.token,
      // The second organization's token, under the name the printed config reads it from.
      SOUTH_ACADEMY_TOKEN: south?.token,
    });
    expect(lines).toContain('Then, in another terminal: npx meal-notifier orders');

    const response = await fetch(`${exported.MEAL_API_BASE_URL}/orders`, {
      headers: {
        Authorization: `Bearer ${exported.MEAL_API_TOKEN}`,
        'X-SERVICE-ORGANIZATION': exported.MEAL_API_ORGANIZATION ?? '',
      },
    });
    expect(response.status).toBe(200);

    stop.abort();
    await finished;
    await expect(fetch(`${sim.baseUrl}/orders`)).rejects.toThrow();
    expect(output()).toContain('Simulator stopped.');
  });

  it('passes the flags on to the simulator', async () => {
    const { stop, finished, sim } = await runUntilStarted([
      '--port',
      '0',
      '--bare',
      '--pickup-format',
      'dmy',
      '--error-rate',
      '0.25',
      '--latency',
      '5',
      '--requests-per-minute',
      '7',
      '--speed',
      '0',
    ]);
    if (!sim) throw new Error('the simulator did not start');
    expect(sim.faults.settings).toMatchObject({ errorRate: 0.25, latencyMs: 5 });
    expect(sim.requestsPerMinute).toBe(7);
    expect(sim.scenario.enabled).toBe(false);
    sim.faults.set({ errorRate: 0, latencyMs: 0 });
    const response = await fetch(`${sim.baseUrl}/orders`, {
      headers: { Authorization: `Bearer ${sim.token}`, 'X-SERVICE-ORGANIZATION': sim.organization.id },
    });
    const body = (await response.json()) as Array<{ pickup_at: string }>;
    expect(Array.isArray(body)).toBe(true);
    expect(body[0]?.pickup_at).toMatch(/^\d{2}\/\d{2}\/\d{2}$/);
    stop.abort();
    await finished;
  });

  it('prints every organization with the token that reads it, and a config that polls them all', async () => {
    const { output, stop, finished, sim } = await runUntilStarted(['--port', '0', '--speed', '0']);
    if (!sim) throw new Error('the simulator did not start');
    const text = output();
    expect(text).toContain('World demo: two schools');
    for (const organization of sim.organizations) {
      const token = sim.access.list().find((grant) => grant.organizations.includes(organization.id))?.token;
      expect(text).toMatch(
        new RegExp(
          `^  ${organization.name} +MEAL_API_ORGANIZATION=${organization.id} MEAL_API_TOKEN=${token}$`,
          'm',
        ),
      );
    }
    const config = parseConfig(JSON.parse(printedConfig(text)));
    expect(config.organizations.map((organization) => organization.id)).toEqual(
      sim.organizations.map((organization) => organization.id),
    );
    expect(config.organizations.map((organization) => organization.token.env)).toEqual([
      'MEAL_API_TOKEN',
      'SOUTH_ACADEMY_TOKEN',
    ]);
    stop.abort();
    await finished;
  });

  it('prints the establishments with their closing times and working days, --closing-in moving the first', async () => {
    const { output, stop, finished, sim } = await runUntilStarted([
      '--port',
      '0',
      '--world',
      'canteen-afternoon',
      '--closing-in',
      '90',
    ]);
    if (!sim) throw new Error('the simulator did not start');
    const text = output();
    const [first, second, third] = sim.world.establishments();
    expect(first?.working_days).toContain(isoWeekday(sim.world.today()));
    expect(text).toContain('Establishments (orders for today close at their closing time, Europe/Lisbon');
    expect(text).toMatch(new RegExp(`^  Main Canteen {7}closes ${first?.order_closing_time}, `, 'm'));
    expect(text).toMatch(/^ {2}Café Bar {11}closes 17:00:00, Mon–Sat$/m);
    expect(text).toMatch(/^ {2}Sports Hall Kiosk {2}closes 09:00:00, Mon–Fri$/m);
    expect([second?.order_closing_time, third?.order_closing_time]).toEqual(['17:00:00', '09:00:00']);
    // Ninety seconds from now in the world's zone, to the second (the start took under a few seconds).
    const closesAt = zonedInstant(sim.world.today(), first?.order_closing_time ?? '', sim.world.timeZone);
    expect(Math.abs(closesAt - (Date.now() + 90_000))).toBeLessThan(5_000);
    stop.abort();
    await finished;
  });

  it('--world canteen-afternoon runs the canteen in real time and prints its window for the config', async () => {
    const { output, stop, finished, sim } = await runUntilStarted([
      '--port',
      '0',
      '--world',
      'canteen-afternoon',
    ]);
    if (!sim) throw new Error('the simulator did not start');
    expect(sim.preset.name).toBe('canteen-afternoon');
    expect(sim.scenario.options.speed).toBe(1);
    expect(sim.world.orderCount).toBeGreaterThanOrEqual(2_900);
    const text = output();
    expect(text).toContain('World canteen-afternoon: one school, 3 establishments');
    expect(text).toContain('(speed 1)');
    const config = parseConfig(JSON.parse(printedConfig(text)));
    expect(config.organizations).toHaveLength(1);
    expect(config.organizations[0]).toMatchObject({
      id: sim.organization.id,
      name: 'Canteen School',
      token: { env: 'MEAL_API_TOKEN' },
      timeZone: 'Europe/Lisbon',
      window: { daysBack: 3, daysAhead: 3 },
    });
    stop.abort();
    await finished;
  });

  it('--world shared-token prints all twenty organizations, each read with the one token', async () => {
    const { output, stop, finished, sim } = await runUntilStarted([
      '--port',
      '0',
      '--world',
      'shared-token',
      '--speed',
      '0',
    ]);
    if (!sim) throw new Error('the simulator did not start');
    const text = output();
    const lines = text.split('\n').filter((line) => line.includes(`MEAL_API_TOKEN=${sim.token}`));
    // The export line, then one line per organization.
    expect(lines).toHaveLength(21);
    for (const organization of sim.organizations)
      expect(text).toContain(`MEAL_API_ORGANIZATION=${organization.id}`);
    expect(text.match(/^export /gm)).toHaveLength(3);
    const config = parseConfig(JSON.parse(printedConfig(text)));
    expect(config.organizations).toHaveLength(20);
    expect(new Set(config.organizations.map((organization) => organization.token.env))).toEqual(
      new Set(['MEAL_API_TOKEN']),
    );
    stop.abort();
    await finished;
  });

  it.each([
    [['--world', 'mars'], '--world "mars" must be one of demo, canteen-afternoon, shared-token'],
    [['--port', '70000'], '--port "70000" must be an integer from 0 to 65535'],
    [['--port', 'abc'], '--port "abc" must be an integer from 0 to 65535'],
    [['--seed', '1.5'], '--seed "1.5"'],
    [['--error-rate', '2'], '--error-rate "2" must be a number from 0 to 1'],
    [['--pickup-format', 'us'], '--pickup-format "us" must be one of iso, dmy, mixed'],
    [['--time-zone', 'Mars/Olympus'], '--time-zone "Mars/Olympus"'],
    [['--receivers', '--show', 'all'], '--show "all" must be one of summary, full'],
    [['--show', 'full'], '--show says what --receivers prints of each message; add --receivers'],
  ])('refuses %j with a one-line usage error', async (args, message) => {
    const command = simulateCommand({ stdout: captureSink().sink, stopSignal: AbortSignal.abort() });
    command.exitOverride();
    const attempt = command.parseAsync(args, { from: 'user' });
    await expect(attempt).rejects.toBeInstanceOf(CliUsageError);
    await expect(attempt).rejects.toThrow(message);
    await attempt.catch((error: Error) => expect(error.message).not.toContain('\n'));
  });
});
