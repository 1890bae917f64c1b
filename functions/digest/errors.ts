// What fails a digest run: digests claimed but not published, named, so the error alarm points at them.
import { EXIT_FAILURE, type ExitCode, NotifierError } from '../../shared/errors/notifierError.js';

export class DigestPublishError extends NotifierError {
  readonly digestIds: readonly string[];

  constructor(digestIds: readonly string[]) {
    super(
      `${digestIds.length} digest(s) not published (${digestIds.join(', ')}); the digest function log says why, and the next run retries them`,
    );
    this.digestIds = digestIds;
  }

  override get exitCode(): ExitCode {
    return EXIT_FAILURE;
  }

  override get userFacing(): boolean {
    return true;
  }
}
