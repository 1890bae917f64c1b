// Every request the simulator answered, in arrival order, so tests can assert what a client sent and
// count its requests.

export interface RequestLogEntry {
  /** Clock reading when the request arrived. */
  at: number;
  method: string;
  /** Path without the query, e.g. `/api/v1/admin/orders`. */
  path: string;
  /** Query parameters as sent (the last value wins for a repeated name). */
  query: Record<string, string>;
  status: number;
  /** Request headers, names lowercased. */
  headers: Record<string, string>;
}

export class RequestLog {
  private readonly entries: RequestLogEntry[] = [];

  record(entry: RequestLogEntry): void {
    this.entries.push(entry);
  }

  /** A copy of every entry, oldest first. */
  all(): RequestLogEntry[] {
    return this.entries.map((entry) => ({
      ...entry,
      query: { ...entry.query },
      headers: { ...entry.headers },
    }));
  }

  get size(): number {
    return this.entries.length;
  }

  last(): RequestLogEntry | undefined {
    return this.all().at(-1);
  }

  /** Entries whose path ends with `suffix` (e.g. `/orders`). */
  forPath(suffix: string): RequestLogEntry[] {
    return this.all().filter((entry) => entry.path.endsWith(suffix));
  }

  clear(): void {
    this.entries.length = 0;
  }
}
