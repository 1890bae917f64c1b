// Waiting on a real timer: the default `sleep` of everything that waits (the request budget, the API
// client's retries, Slack pacing, the CLI). Each takes it as an option, so tests pass fake time instead.

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
