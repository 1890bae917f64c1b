// What fails a digest run: digests (or parts) not sent, because their event log could not be read, they could
// not be built, claimed or published; named, so the error alarm points at them.
import { TransientError } from '../../shared/errors/transientError.js';

export class DigestPublishError extends TransientError {
  readonly digestIds: readonly string[];

  constructor(digestIds: readonly string[]) {
    super(
      `${digestIds.length} digest(s) not sent (${digestIds.join(', ')}); the digest function log says why, and the next run retries them`,
    );
    this.digestIds = digestIds;
  }
}
