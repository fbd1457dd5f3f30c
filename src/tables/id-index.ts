/**
 * A set of row ids with the line each was first seen on, kept compact so that a file of
 * millions of rows can be checked for duplicates while it streams: ids are stored as
 * UTF-8 bytes in one growing buffer and found through an open-addressing table of
 * typed arrays (about 20 bytes an id plus its length, against ~130 for a Map of
 * strings). Exact: a hash match is confirmed by comparing the bytes. Holds up to 2 GiB of
 * id bytes and lines up to 2^31.
 */
export class IdIndex {
  #bytes = Buffer.allocUnsafe(64 * 1024);
  #used = 0;
  /** Per entry: start of its bytes (the next entry's start is its end), hash, first line. */
  #starts = new Int32Array(1025);
  #hashes = new Int32Array(1024);
  #lines = new Int32Array(1024);
  #count = 0;
  /** Slots hold entry index + 1; 0 is empty. Kept at most half full. */
  #table = new Int32Array(2048);

  /** Ids recorded so far. */
  get size(): number {
    return this.#count;
  }

  /**
   * Records `id` first seen on `line`, or, when it is already there, leaves the index as
   * it is and returns the line it was first seen on.
   */
  addOrFind(id: string, line: number): number | undefined {
    const hash = hashOf(id);
    this.#reserve(id.length * 3);
    const start = this.#used;
    const end = start + this.#bytes.write(id, start, 'utf8');
    const mask = this.#table.length - 1;
    let slot = hash & mask;
    for (;;) {
      const e = this.#table[slot]!;
      if (e === 0) break;
      const k = e - 1;
      if (this.#hashes[k] === hash && this.#sameBytes(k, start, end)) return this.#lines[k];
      slot = (slot + 1) & mask;
    }
    const k = this.#count;
    this.#growEntries(k + 1);
    this.#hashes[k] = hash;
    this.#lines[k] = line;
    this.#starts[k] = start;
    this.#starts[k + 1] = end;
    this.#table[slot] = k + 1;
    this.#count = k + 1;
    this.#used = end;
    if (this.#count * 2 > this.#table.length) this.#rehash();
    return undefined;
  }

  #sameBytes(k: number, start: number, end: number): boolean {
    const s = this.#starts[k]!;
    const e = this.#starts[k + 1]!;
    return e - s === end - start && this.#bytes.compare(this.#bytes, start, end, s, e) === 0;
  }

  #reserve(extra: number): void {
    if (this.#used + extra <= this.#bytes.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.#bytes.length * 2, this.#used + extra));
    this.#bytes.copy(next, 0, 0, this.#used);
    this.#bytes = next;
  }

  #growEntries(n: number): void {
    if (n < this.#hashes.length) return;
    const size = this.#hashes.length * 2;
    const starts = new Int32Array(size + 1);
    starts.set(this.#starts);
    const hashes = new Int32Array(size);
    hashes.set(this.#hashes);
    const lines = new Int32Array(size);
    lines.set(this.#lines);
    this.#starts = starts;
    this.#hashes = hashes;
    this.#lines = lines;
  }

  #rehash(): void {
    const table = new Int32Array(this.#table.length * 2);
    const mask = table.length - 1;
    for (let k = 0; k < this.#count; k++) {
      let slot = this.#hashes[k]! & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = k + 1;
    }
    this.#table = table;
  }
}

/** FNV-1a over UTF-16 code units, mixed at the end so low bits spread well. */
function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  return h ^ (h >>> 13);
}
