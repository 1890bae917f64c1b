// Timestamps as the API writes them, `YYYY-MM-DDTHH:MM:SS.ssssssZ`, kept internally as microseconds
// since the epoch so that two changes within one millisecond still get distinct, ordered values.

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.(\d{6})Z$/;

export function microsFromMs(ms: number): number {
  return Math.floor(ms) * 1000;
}

export function formatTimestamp(micros: number): string {
  const seconds = Math.floor(micros / 1_000_000);
  const fraction = String(micros - seconds * 1_000_000).padStart(6, '0');
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}.${fraction}Z`;
}

/** Reads a timestamp written by `formatTimestamp`; throws on any other shape. */
export function parseTimestamp(text: string): number {
  const match = TIMESTAMP.exec(text);
  if (!match) throw new RangeError(`not a timestamp of the API's shape: ${text}`);
  return Date.parse(`${match[1]}Z`) * 1000 + Number(match[2]);
}
