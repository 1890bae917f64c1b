// Test-only preload (`NODE_OPTIONS=--import <this file>`): lets a test skip a real `meal-notifier` process's
// long wait instead of sleeping through it. A wait through `node:timers/promises` of at least
// MEAL_NOTIFIER_TEST_FAST_FORWARD_AT_LEAST_MS (the runner's scheduler waits so for an organization's next
// turn) is held as a real timer would hold it, until the process gets SIGUSR2: then the wall clock
// (`Date.now()`, `new Date()`, `Date()`) jumps ahead by the longest such wait's remaining time and every
// such wait ends, as if that time had passed. Shorter waits, and every other timer, are left as they are.
import { createRequire, syncBuiltinESMExports } from 'node:module';

const atLeastMs = Number(process.env.MEAL_NOTIFIER_TEST_FAST_FORWARD_AT_LEAST_MS ?? 'NaN');
if (!Number.isFinite(atLeastMs) || atLeastMs <= 0) {
  throw new Error(
    `MEAL_NOTIFIER_TEST_FAST_FORWARD_AT_LEAST_MS must be a positive number of milliseconds, not ${JSON.stringify(process.env.MEAL_NOTIFIER_TEST_FAST_FORWARD_AT_LEAST_MS)}`,
  );
}

let offsetMs = 0;
const RealDate = Date;
const realNow = RealDate.now.bind(RealDate);
const now = () => realNow() + offsetMs;
const ShiftedDate = new Proxy(RealDate, {
  construct(target, args, newTarget) {
    return Reflect.construct(
      target,
      args.length === 0 ? [now()] : args,
      newTarget === ShiftedDate ? target : newTarget,
    );
  },
  apply() {
    return new RealDate(now()).toString();
  },
  get(target, property) {
    return property === 'now' ? now : Reflect.get(target, property);
  },
});
globalThis.Date = ShiftedDate;

/** The long waits under way: when each ends (on the shifted clock), and how to end it now. */
const longWaits = new Set();
const require = createRequire(import.meta.url);
const timersPromises = require('node:timers/promises');
const realWait = timersPromises.setTimeout;
timersPromises.setTimeout = (ms, value, options) => {
  if (!(ms >= atLeastMs)) return realWait(ms, value, options);
  const skip = new AbortController();
  const signal = options?.signal ? AbortSignal.any([options.signal, skip.signal]) : skip.signal;
  const wait = { endsAt: now() + ms, skip };
  longWaits.add(wait);
  return realWait(ms, value, { ...options, signal })
    .catch((error) => {
      // Skipped by the fast-forward: ends as if it had run its course. Aborted by the caller: as it would.
      if (skip.signal.aborted && !options?.signal?.aborted) return value;
      throw error;
    })
    .finally(() => longWaits.delete(wait));
};
syncBuiltinESMExports();

process.on('SIGUSR2', () => {
  if (longWaits.size === 0) return;
  const until = Math.max(...[...longWaits].map((wait) => wait.endsAt));
  offsetMs += Math.max(0, until - now());
  for (const wait of [...longWaits]) wait.skip.abort();
});
