// Builds AdminApiClients for tests: injected clock/sleep/random so no test waits real time, and a registry
// so every client is closed after each test.
import {
  AdminApiClient,
  type AdminApiClientOptions,
  type AttemptReport,
} from '../../shared/api/adminApiClient.js';

/** Distinctive enough that finding it in any message is unambiguous. */
export const TEST_TOKEN = 'tok_9Xq2-SECRET-must-never-leak-4fA7';
export const ORGANIZATION_ID = '3f1e9c2a-7b4d-4e8f-9a10-5c6d7e8f9a0b';
export const ORGANIZATION_NAME = 'Escola Básica do Norte';

export interface FakeTime {
  clock: () => number;
  /** Records the delay and advances the clock by it, resolving at once. */
  sleep: (ms: number) => Promise<void>;
  readonly sleeps: number[];
  advance(ms: number): void;
}

/** A controllable clock; starts on a whole second so HTTP dates convert exactly. */
export function fakeTime(startMs = Date.UTC(2026, 2, 5, 12, 0, 0)): FakeTime {
  let now = startMs;
  const sleeps: number[] = [];
  return {
    clock: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    sleeps,
    advance: (ms) => {
      now += ms;
    },
  };
}

export interface TestClient {
  client: AdminApiClient;
  time: FakeTime;
  attempts: AttemptReport[];
}

const open: AdminApiClient[] = [];

export function createTestClient(
  baseUrl: string,
  overrides: Partial<AdminApiClientOptions> = {},
  time: FakeTime = fakeTime(),
): TestClient {
  const attempts: AttemptReport[] = [];
  const client = new AdminApiClient({
    baseUrl,
    organizationId: ORGANIZATION_ID,
    token: TEST_TOKEN,
    clock: time.clock,
    sleep: time.sleep,
    random: () => 0.5,
    onAttempt: (attempt) => attempts.push(attempt),
    ...overrides,
  });
  open.push(client);
  return { client, time, attempts };
}

export async function closeTestClients(): Promise<void> {
  await Promise.all(open.splice(0).map((client) => client.close()));
}

/** Awaits a promise expected to reject and returns the rejection, failing the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-Error: ${String(error)}`);
  }
  throw new Error('expected the promise to reject, but it resolved');
}
