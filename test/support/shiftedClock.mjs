// Test-only preload (`NODE_OPTIONS=--import <this file>`): moves the process's wall clock by
// MEAL_NOTIFIER_TEST_CLOCK_OFFSET_MS milliseconds, `Date.now()`, `new Date()` and `Date()` alike, so a real
// `meal-notifier` process can be started a few seconds before a period boundary (an hour, a closing time)
// without waiting for one. Timers and dates built from a given instant are left as they are.
const offsetMs = Number(process.env.MEAL_NOTIFIER_TEST_CLOCK_OFFSET_MS ?? '0');
if (!Number.isFinite(offsetMs)) {
  throw new Error(
    `MEAL_NOTIFIER_TEST_CLOCK_OFFSET_MS must be a number of milliseconds, not ${JSON.stringify(process.env.MEAL_NOTIFIER_TEST_CLOCK_OFFSET_MS)}`,
  );
}
if (offsetMs !== 0) {
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
}
