// Splits the items of one logical write into TransactWriteItems requests DynamoDB accepts: at most 100
// items and 4 MB of items each. Synth knows nothing of these limits; a request over them fails on AWS
// (ValidationException) every time it is sent.

/** DynamoDB's most items in one TransactWriteItems. */
export const MAX_TRANSACTION_ITEMS = 100;
/** DynamoDB's most bytes of items in one TransactWriteItems (4 MB), less a margin for the estimate. */
export const MAX_TRANSACTION_BYTES = 4 * 1024 * 1024 - 256 * 1024;

/**
 * An item's size, from above: its JSON, in UTF-8. DynamoDB counts attribute names and values; JSON adds
 * quotes, colons and escapes (a payload that is itself JSON gets a backslash per quote), never less.
 */
export function estimatedItemBytes(item: unknown): number {
  return Buffer.byteLength(JSON.stringify(item), 'utf8');
}

/**
 * The items in order, cut into runs within `maxItems` and `maxBytes`; an item alone over `maxBytes` is a
 * run of its own (DynamoDB refuses it by its own 400 KB item limit, which chunking cannot help).
 * `reservedItems`/`reservedBytes` is room kept free in the last run for what the caller adds there (the
 * last run is then empty when nothing else fits with it).
 */
export function chunkTransactionItems<T>(
  items: readonly T[],
  sizeOf: (item: T) => number,
  {
    reservedItems = 0,
    reservedBytes = 0,
    maxItems = MAX_TRANSACTION_ITEMS,
    maxBytes = MAX_TRANSACTION_BYTES,
  } = {},
): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (current.length > 0 && (current.length + 1 > maxItems || bytes + size > maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  // The last run must have room for the reserved item; if it has not, that item goes in a run of its own.
  if (current.length + reservedItems > maxItems || bytes + reservedBytes > maxBytes) {
    chunks.push(current);
    current = [];
  }
  chunks.push(current);
  return chunks;
}
