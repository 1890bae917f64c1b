// Which token a client draws on, without the token itself: a hash of it. It is the key the token's request
// budget is counted under, and what tells organizations sharing a token (shared/poll/organizationsOnToken.ts)
// in both runtimes, however many secret references hold it.
import { createHash } from 'node:crypto';

/** `token#` and the first 32 hex digits of the token's SHA-256: safe in logs, keys and errors. */
export function tokenIdentity(token: string): string {
  return `token#${createHash('sha256').update(token).digest('hex').slice(0, 32)}`;
}
