// How the publisher groups entries into PublishBatch requests: never more than 10 entries nor more than
// 256 KiB of messages in one request, in stream order.

import { describe, expect, it } from 'vitest';
import { defaultHighlightWords } from '../../../shared/delivery/highlightWordsOf.js';
import {
  chunkForPublishBatch,
  entryBytes,
  publishEntry,
  SNS_BATCH_MAX_BYTES,
} from '../../../shared/publish/publishEntries.js';
import { makeOrderEvent } from '../../support/eventFixtures.js';

describe('chunkForPublishBatch', () => {
  it('cuts at 10 entries', () => {
    const items = Array.from({ length: 23 }, (_, index) => index);
    expect(chunkForPublishBatch(items, () => 1).map((chunk) => chunk.length)).toEqual([10, 10, 3]);
    expect(chunkForPublishBatch(items, () => 1).flat()).toEqual(items);
  });

  it('cuts before the entry that would take a request past 256 KiB', () => {
    const sizes = [100_000, 100_000, 100_000, 10, 262_144, 1];
    const chunks = chunkForPublishBatch(
      sizes.map((bytes, index) => ({ index, bytes })),
      ({ bytes }) => bytes,
    );
    expect(chunks.map((chunk) => chunk.map(({ index }) => index))).toEqual([[0, 1], [2, 3], [4], [5]]);
    for (const chunk of chunks.slice(0, 2)) {
      expect(chunk.reduce((sum, { bytes }) => sum + bytes, 0)).toBeLessThanOrEqual(SNS_BATCH_MAX_BYTES);
    }
  });

  it('gives an entry too large on its own a request of its own', () => {
    expect(chunkForPublishBatch([1, 300_000, 1], (bytes) => bytes)).toEqual([[1], [300_000], [1]]);
  });

  it('returns no request for no entries', () => {
    expect(chunkForPublishBatch([], () => 1)).toEqual([]);
  });
});

describe('entryBytes', () => {
  it('counts the message, the subject and every attribute name, type and value', () => {
    const entry = publishEntry(makeOrderEvent(), defaultHighlightWords);
    const attributes = Object.entries(entry.MessageAttributes ?? {}).reduce(
      (sum, [name, value]) =>
        sum + name.length + (value.DataType?.length ?? 0) + (value.StringValue?.length ?? 0),
      0,
    );
    expect(entryBytes(entry)).toBe(
      Buffer.byteLength(entry.Message ?? '') + Buffer.byteLength(entry.Subject ?? '') + attributes,
    );
  });
});
