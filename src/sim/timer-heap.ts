interface Entry {
  due: number;
  seq: number;
  fn: () => void;
}

/**
 * Many deadlines behind one Node timer: a binary min-heap ordered by due time (then by
 * insertion). Runs schedule every step of their work here; thousands of runs in flight
 * cost one armed timer instead of one per step. Due times are `performance.now()` values.
 */
export class TimerHeap {
  #heap: Entry[] = [];
  #seq = 0;
  #timer: NodeJS.Timeout | undefined;
  #armedFor = Number.POSITIVE_INFINITY;
  #closed = false;
  #firing = false;

  /** Calls `fn` at `due` (performance.now() time), or soon after. Does nothing once closed. */
  at(due: number, fn: () => void): void {
    if (this.#closed) return;
    this.#push({ due, seq: this.#seq++, fn });
    if (!this.#firing && due < this.#armedFor) this.#arm();
  }

  /** Entries waiting. */
  get size(): number {
    return this.#heap.length;
  }

  /** Drops every entry and refuses new ones. */
  close(): void {
    this.#closed = true;
    this.#heap = [];
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(): void {
    const head = this.#heap[0];
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
    if (!head) return;
    this.#armedFor = head.due;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, head.due - performance.now()));
    this.#timer.unref();
  }

  #fire(): void {
    this.#timer = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
    // Node timers have millisecond resolution: what falls due within the next one runs now.
    const until = performance.now() + 1;
    this.#firing = true;
    try {
      while (!this.#closed && this.#heap.length && this.#heap[0]!.due <= until) this.#pop().fn();
    } finally {
      this.#firing = false;
      if (!this.#closed) this.#arm();
    }
  }

  #push(e: Entry): void {
    const h = this.#heap;
    let i = h.length;
    h.push(e);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(e, h[p]!)) break;
      h[i] = h[p]!;
      i = p;
    }
    h[i] = e;
  }

  #pop(): Entry {
    const h = this.#heap;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const r = l + 1;
        const c = r < h.length && before(h[r]!, h[l]!) ? r : l;
        if (!before(h[c]!, last)) break;
        h[i] = h[c]!;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}

function before(a: Entry, b: Entry): boolean {
  return a.due < b.due || (a.due === b.due && a.seq < b.seq);
}
