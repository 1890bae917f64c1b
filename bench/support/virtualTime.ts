// Virtual time for the simulated benches: waits and latency move the clock instead of passing, so a
// simulated day or week takes seconds.
export class VirtualTime {
  constructor(public now: number) {}
  readonly clock = (): number => this.now;
  readonly sleep = async (ms: number): Promise<void> => {
    this.now += Math.max(0, ms);
  };
}
