// Deterministic pseudo-random numbers (sfc32, seeded through a string hash), so one seed replays one world.
// Streams are forked by label, not by draw order, so adding a stream never shifts the numbers of another.

export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(private readonly key: string | number) {
    const text = String(key);
    this.a = hashText(`${text}#a`);
    this.b = hashText(`${text}#b`);
    this.c = hashText(`${text}#c`);
    this.d = hashText(`${text}#d`);
    // The first outputs of sfc32 are poorly mixed; discarding a few is the usual remedy.
    for (let i = 0; i < 12; i += 1) this.nextUint32();
  }

  /** An independent stream named `label`; the same seed and label always give the same numbers. */
  fork(label: string): SeededRandom {
    return new SeededRandom(`${String(this.key)}/${label}`);
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('cannot pick from an empty list');
    return item;
  }

  /** One of the values, each as likely as its weight. */
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
    const totalWeight = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let remaining = this.next() * totalWeight;
    for (const [value, weight] of entries) {
      remaining -= weight;
      if (remaining < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (last === undefined) throw new RangeError('cannot pick from an empty list');
    return last[0];
  }

  /** An exponentially distributed wait with the given mean: the gap between arrivals of a Poisson process. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.next());
  }

  hex(length: number): string {
    let text = '';
    while (text.length < length) text += this.nextUint32().toString(16).padStart(8, '0');
    return text.slice(0, length);
  }

  /** A version 4 UUID drawn from this stream. */
  uuid(): string {
    const hex = this.hex(32);
    const variant = ((Number.parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  private nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }
}

/** 32-bit FNV-1a: a stable, well-spread number for a string. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
