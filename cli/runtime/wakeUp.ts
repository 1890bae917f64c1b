// A nudge from the poll loop to the delivery loop: "events were just queued". Each round of the delivery
// loop runs under a signal that the stop or the next wake-up aborts, whichever comes first.

export class WakeUp {
  #current = new AbortController();

  wake(): void {
    this.#current.abort();
    this.#current = new AbortController();
  }

  /** Aborted by the stop signal or the next wake(). */
  nextSignal(stop: AbortSignal): AbortSignal {
    return AbortSignal.any([stop, this.#current.signal]);
  }
}
