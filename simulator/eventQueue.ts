// A priority queue of timed events (binary min-heap). Ties on time keep insertion order, so replaying
// the same schedule always applies events in the same sequence.

interface Entry<T> {
  at: number;
  seq: number;
  event: T;
}

export class EventQueue<T> {
  private readonly heap: Entry<T>[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  push(at: number, event: T): void {
    this.heap.push({ at, seq: this.seq, event });
    this.seq += 1;
    this.siftUp(this.heap.length - 1);
  }

  /** Time of the earliest event, if any. */
  peekTime(): number | undefined {
    return this.heap[0]?.at;
  }

  /** Removes and returns the earliest event due at or before `time`. */
  popDue(time: number): { at: number; event: T } | undefined {
    const top = this.heap[0];
    if (!top || top.at > time) return undefined;
    const last = this.heap.pop();
    if (last && this.heap.length > 0) {
      this.heap[0] = last;
      this.siftDown(0);
    }
    return { at: top.at, event: top.event };
  }

  private siftUp(index: number): void {
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.before(child, parent)) return;
      this.swap(child, parent);
      child = parent;
    }
  }

  private siftDown(index: number): void {
    let parent = index;
    for (;;) {
      const left = parent * 2 + 1;
      const right = left + 1;
      let smallest = parent;
      if (left < this.heap.length && this.before(left, smallest)) smallest = left;
      if (right < this.heap.length && this.before(right, smallest)) smallest = right;
      if (smallest === parent) return;
      this.swap(parent, smallest);
      parent = smallest;
    }
  }

  private before(i: number, j: number): boolean {
    const a = this.heap[i];
    const b = this.heap[j];
    if (!a || !b) return false;
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private swap(i: number, j: number): void {
    const a = this.heap[i];
    const b = this.heap[j];
    if (!a || !b) return;
    this.heap[i] = b;
    this.heap[j] = a;
  }
}
