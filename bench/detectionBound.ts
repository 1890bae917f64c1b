// The least p95 detection time any poller could reach in a budget world, from first principles: the API's
// limit, the world's listings and the rate of its changes, the configured sweep period and the configured
// poll interval. Nothing of our own pacing goes in (no headroom, no share cap, no hold), so the bench's
// measured p95 divided by it says how far from what the API allows the notifier is.

export interface BoundWorld {
  /** What the token may send a minute: the API's limit. */
  usablePerMinute: number;
  /** Organizations polled with the token: a complete walk of each is one round. */
  organizations: number;
  /** Pages one complete walk of an organization's pending window takes (the world's mean). */
  pendingPages: number;
  /** Orders that leave pending a minute, per organization: each needs one look-up to be told apart. */
  lookupsPerMinute: number;
  /** Pages one full sweep of an organization's terminal listings takes. */
  sweepPages: number;
  /** The configured period of a full sweep. */
  sweepIntervalSeconds: number;
  /** The configured least gap between an organization's cycles (AWS's 60 s default is part of the bound). */
  pollIntervalSeconds: number;
  /** The API's answer time per request. */
  latencyMs: number;
  /** From the event recorded to its receiver; 0 where the bench stops at the recorded event. */
  deliveryS: number;
}

export interface DetectionBound {
  /** Requests a minute the sweep takes at its configured period, for every organization on the token. */
  sweepPerMinute: number;
  /** Least period between two complete walks of one organization's pending window. */
  periodS: number;
  /** One walk of pending and the look-up a departure needs, at the world's latency. */
  walkS: number;
  /** p95 of the detection time of a change landing at a uniformly random moment. */
  boundS: number;
}

/**
 * In a period P (a round of every organization on the token), the token must pay for every organization's
 * pending pages and for the look-ups of the orders that left pending meanwhile, out of what the sweep
 * leaves: N × pages + N × lookups × P ≤ (usable − sweep) × P, so P = N × pages ÷ (usable − sweep − N ×
 * lookups), never shorter than the configured interval nor than the round's own requests at the latency.
 * A change landing at a uniformly random moment waits for the next walk (uniform over P, so its p95 is
 * 0.95 × P), then the walk and its look-up, then delivery.
 */
export function detectionBound(world: BoundWorld): DetectionBound {
  const n = world.organizations;
  const sweepPerMinute = (n * world.sweepPages * 60) / world.sweepIntervalSeconds;
  const leftPerSecond = (world.usablePerMinute - sweepPerMinute - n * world.lookupsPerMinute) / 60;
  if (leftPerSecond <= 0) {
    throw new RangeError(
      `the token's ${world.usablePerMinute} requests a minute cannot pay for the sweep and the look-ups of ${n} organization(s)`,
    );
  }
  const latencyS = world.latencyMs / 1000;
  const budgetPeriodS = (n * world.pendingPages) / leftPerSecond;
  const roundS = n * (world.pendingPages + (world.lookupsPerMinute * budgetPeriodS) / 60) * latencyS;
  const periodS = Math.max(budgetPeriodS, roundS, world.pollIntervalSeconds);
  const walkS = (world.pendingPages + 1) * latencyS;
  return { sweepPerMinute, periodS, walkS, boundS: 0.95 * periodS + walkS + world.deliveryS };
}
