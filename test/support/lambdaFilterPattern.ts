// A small evaluator of Lambda event source mapping filter patterns (FilterCriteria), for the subset the
// stack writes: nested objects down to lists of exact string or number values. It stands in for Lambda's
// own filtering of stream records, so a test feeds a function only what Lambda would.

/**
 * Whether `record` passes `pattern`: every key of the pattern must be present in the record; a list
 * matches a value equal to one of its entries, an object matches an object field by field.
 */
export function lambdaPatternMatches(pattern: unknown, record: unknown): boolean {
  if (typeof pattern !== 'object' || pattern === null || Array.isArray(pattern)) {
    throw new Error(`a filter pattern is an object of fields, not ${JSON.stringify(pattern)}`);
  }
  return Object.entries(pattern).every(([key, condition]) => {
    const value =
      typeof record === 'object' && record !== null ? (record as Record<string, unknown>)[key] : undefined;
    if (Array.isArray(condition)) {
      for (const allowed of condition) {
        // Anything else (prefix, anything-but, numeric ranges, exists) is outside the subset.
        if (typeof allowed !== 'string' && typeof allowed !== 'number') {
          throw new Error(`filter pattern key ${key} holds a condition this evaluator does not know`);
        }
      }
      return (typeof value === 'string' || typeof value === 'number') && condition.includes(value);
    }
    return lambdaPatternMatches(condition, value);
  });
}

/** Whether any of an event source mapping's `FilterCriteria.Filters` lets `record` through (none: all). */
export function passesFilterCriteria(
  criteria: { Filters?: { Pattern: string }[] } | undefined,
  record: unknown,
): boolean {
  const filters = criteria?.Filters ?? [];
  if (filters.length === 0) return true;
  return filters.some(({ Pattern }) => lambdaPatternMatches(JSON.parse(Pattern) as unknown, record));
}
