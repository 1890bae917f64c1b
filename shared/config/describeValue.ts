// How config messages quote what the user wrote: short, typed, and only ever for non-secret fields.

const MAX_QUOTED = 80;

/** A string as a JSON literal (cut when long); any other value by its kind, e.g. `a number (42)`. */
export function quoted(value: unknown): string {
  if (typeof value === 'string') {
    return JSON.stringify(value.length > MAX_QUOTED ? `${value.slice(0, MAX_QUOTED)}…` : value);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return kindOf(value);
}

/** The JSON kind of a value, as a reader of the config file would name it. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true/false';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}
