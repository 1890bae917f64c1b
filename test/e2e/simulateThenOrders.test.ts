// The README's first walk-through, run as a new user would: `simulate` in one process, then `orders`
// with the connection it printed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningCli, runCli, startCli } from '../support/runCli.js';

let simulator: RunningCli;
let env: Record<string, string>;

beforeAll(async () => {
  // A frozen world of 300 orders, so this week's pending orders span several pages and stay put.
  simulator = startCli(['simulate', '--port', '0', '--seed', '11', '--speed', '0', '--orders', '300']);
  const printed = await simulator.waitForStdout(/export MEAL_API_TOKEN=\S+\n/);
  env = Object.fromEntries([...printed.matchAll(/^export (MEAL_API_\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
});

afterAll(async () => {
  await simulator.stop();
});

describe('meal-notifier simulate, then orders', () => {
  it('prints all three connection variables', () => {
    expect(Object.keys(env).sort()).toEqual(['MEAL_API_BASE_URL', 'MEAL_API_ORGANIZATION', 'MEAL_API_TOKEN']);
    expect(env.MEAL_API_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/admin$/);
  });

  it('orders --json prints one JSON array holding every pending order across pages', async () => {
    const result = await runCli(['orders', '--json', '--time-zone', 'Europe/Lisbon'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const orders = JSON.parse(result.stdout) as Array<{
      uuid: string;
      status: { value: string };
      pickup_at: string;
    }>;
    expect(orders.length).toBeGreaterThan(25);
    expect(new Set(orders.map((order) => order.uuid)).size).toBe(orders.length);
    expect(orders.every((order) => order.status.value === 'pending')).toBe(true);
    expect(orders.every((order) => /^\d{4}-\d{2}-\d{2}$/.test(order.pickup_at))).toBe(true);

    const table = await runCli(['orders', '--time-zone', 'Europe/Lisbon'], env);
    expect(table.code).toBe(0);
    const pages = Math.ceil(orders.length / 25);
    expect(table.stdout).toContain(`${orders.length} pending orders with pickup`);
    expect(table.stdout).toContain(`(${pages} pages)`);
  });

  it('orders --status completed lists only completed orders', async () => {
    const result = await runCli(['orders', '--json', '--status', 'completed'], env);
    expect(result.code).toBe(0);
    const orders = JSON.parse(result.stdout) as Array<{ status: { value: string } }>;
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.every((order) => order.status.value === 'completed')).toBe(true);
  });

  it('establishments --json lists the establishments the orders refer to', async () => {
    const [establishments, orders] = await Promise.all([
      runCli(['establishments', '--json'], env),
      runCli(['orders', '--json'], env),
    ]);
    expect(establishments.code).toBe(0);
    const known = new Set((JSON.parse(establishments.stdout) as Array<{ uuid: string }>).map((e) => e.uuid));
    expect(known.size).toBeGreaterThan(1);
    for (const order of JSON.parse(orders.stdout) as Array<{ establishment: { uuid: string } }>) {
      expect(known.has(order.establishment.uuid)).toBe(true);
    }
  });

  it('stops cleanly with exit code 0 on SIGINT', async () => {
    const second = startCli(['simulate', '--port', '0', '--speed', '0']);
    await second.waitForStdout(/listening on/);
    expect(await second.stop('SIGINT')).toBe(0);
  });
});
