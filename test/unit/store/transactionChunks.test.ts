import { describe, expect, it } from 'vitest';
import {
  chunkTransactionItems,
  estimatedItemBytes,
  MAX_TRANSACTION_BYTES,
  MAX_TRANSACTION_ITEMS,
} from '../../../shared/store/dynamo/transactionChunks.js';

const ones = (count: number) => Array.from({ length: count }, (_, index) => index);

describe('chunkTransactionItems', () => {
  it('keeps DynamoDB limits: at most 100 items and under 4 MB of items per transaction', () => {
    expect(MAX_TRANSACTION_ITEMS).toBe(100);
    expect(MAX_TRANSACTION_BYTES).toBeLessThan(4 * 1024 * 1024);
  });

  it('cuts 250 small items into runs of 100, 100 and 50, in order', () => {
    const chunks = chunkTransactionItems(ones(250), () => 10);

    expect(chunks.map((chunk) => chunk.length)).toEqual([100, 100, 50]);
    expect(chunks.flat()).toEqual(ones(250));
  });

  it('cuts by size before count: 30 items of 300 KB go in runs under the byte limit', () => {
    const chunks = chunkTransactionItems(ones(30), () => 300 * 1024);

    for (const chunk of chunks) expect(chunk.length * 300 * 1024).toBeLessThanOrEqual(MAX_TRANSACTION_BYTES);
    expect(chunks.flat()).toEqual(ones(30));
    expect(chunks.length).toBeGreaterThan(2);
  });

  it('keeps room in the last run for the reserved item, or leaves it a run of its own', () => {
    expect(chunkTransactionItems(ones(120), () => 10, { reservedItems: 1 }).map((c) => c.length)).toEqual([
      100, 20,
    ]);
    expect(chunkTransactionItems(ones(100), () => 10, { reservedItems: 1 }).map((c) => c.length)).toEqual([
      100, 0,
    ]);
    expect(chunkTransactionItems([], () => 10, { reservedItems: 1 })).toEqual([[]]);
  });

  it('estimates an item from above by its JSON', () => {
    const item = { Put: { Item: { payload: JSON.stringify({ name: 'Soupe à l’oignon' }) } } };

    expect(estimatedItemBytes(item)).toBeGreaterThan(Buffer.byteLength(item.Put.Item.payload));
  });
});
