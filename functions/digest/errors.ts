// What fails a digest run: digests claimed but not published, named, so the error alarm points at them.

export class DigestPublishError extends Error {
  readonly digestIds: readonly string[];

  constructor(digestIds: readonly string[]) {
    super(
      `${digestIds.length} digest(s) not published (${digestIds.join(', ')}); the digest function log says why, and the next run retries them`,
    );
    this.name = new.target.name;
    this.digestIds = digestIds;
  }
}
