// The runner's metrics endpoint over real HTTP on loopback, and `poll`'s refusals of metrics flags that
// cannot work: what a monitor gets for a path or method it should not use, and the one line an operator
// gets when the port is taken or the flags do not fit.
import { afterEach, describe, expect, it } from 'vitest';
import { type MetricsEndpoint, startMetricsServer } from '../../../cli/metrics/metricsServer.js';
import type { Health } from '../../../shared/operations/healthVerdict.js';
import { runCliInProcess } from '../../support/runCliInProcess.js';

const opened: MetricsEndpoint[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((endpoint) => endpoint.close()));
});

async function serve(health: Health, port = 0): Promise<MetricsEndpoint> {
  const endpoint = await startMetricsServer(
    {
      render: async () => '# HELP up\nup 1\n',
      contentType: 'text/plain; version=0.0.4; charset=utf-8',
      health: async () => health,
    },
    { host: '127.0.0.1', port },
  );
  opened.push(endpoint);
  return endpoint;
}

describe('the metrics endpoint', () => {
  it('answers HEAD /healthz with the status alone, and names the paths it serves for any other', async () => {
    const { url } = await serve({ healthy: false, problems: ['North School: never polled'] });
    const head = await fetch(`${url}/healthz`, { method: 'HEAD' });
    expect(head.status).toBe(503);
    expect(await head.text()).toBe('');
    const other = await fetch(`${url}/`);
    expect(other.status).toBe(404);
    expect(await other.text()).toBe('not found: try /metrics or /healthz\n');
    const post = await fetch(`${url}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('says in one line that the port is taken, and what to do', async () => {
    const { url } = await serve({ healthy: true, problems: [] });
    const port = Number(new URL(url).port);
    await expect(serve({ healthy: true, problems: [] }, port)).rejects.toThrow(
      `cannot serve metrics on 127.0.0.1:${port}: the port is in use (another runner?); choose another --metrics-port`,
    );
  });
});

describe('meal-notifier poll, metrics flags', () => {
  it.each([
    [['--metrics-port', '9464', '--once'], '--metrics-port serves the long-running runner; leave out --once'],
    [['--metrics-port', '70000'], '--metrics-port "70000" must be an integer from 0 to 65535'],
    [['--metrics-host', '0.0.0.0'], '--metrics-host needs --metrics-port'],
  ])('refuses %j before anything starts', async (flags, message) => {
    const result = await runCliInProcess(['poll', '--config', 'missing.json', ...flags]);
    expect(result).toMatchObject({ code: 2, stderr: `meal-notifier: ${message}\n` });
  });
});
