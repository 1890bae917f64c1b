// Plain fetch calls against a running simulator, with its credentials unless a test says otherwise.
import type { RunningSimulator } from '../../../simulator/startSimulator.js';

/** Tuesday 10 March 2026, 11:00 in Lisbon (UTC+0 in winter). */
export const T0 = Date.UTC(2026, 2, 10, 11, 0, 0);
export const TODAY = '2026-03-10';

export interface CallOptions {
  query?: Record<string, string> | string;
  /** `null` leaves the header out. */
  token?: string | null;
  /** `null` leaves the header out. */
  organization?: string | null;
  method?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON came back.
  body: any;
}

export async function call(sim: RunningSimulator, path: string, options: CallOptions = {}): Promise<Answer> {
  const url = new URL(`${sim.baseUrl}${path}`);
  url.search = new URLSearchParams(options.query ?? {}).toString();
  return callUrl(sim, url.href, options);
}

export async function callUrl(
  sim: RunningSimulator,
  url: string,
  options: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = options.token === undefined ? sim.token : options.token;
  const organization = options.organization === undefined ? sim.organization.id : options.organization;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  if (organization !== null) headers['X-SERVICE-ORGANIZATION'] = organization;
  const response = await fetch(url, { method: options.method ?? 'GET', headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}
