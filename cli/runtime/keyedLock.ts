// Runs tasks one at a time per key, in the order they asked. The scheduler takes one per request budget:
// organizations sharing a token poll in turn, so each cycle's planner sees what the other really left
// instead of both planning on the same remaining requests and then queueing for them.

export class KeyedLock {
  readonly #tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release = () => {};
    const tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#tails.set(key, tail);
    await previous;
    try {
      return await task();
    } finally {
      release();
      // Forget the key once nobody is waiting behind this task, so the map does not grow.
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
