import { isUtf8 } from 'node:buffer';

/** A byte-level fault in a file: an invalid UTF-8 sequence or a NUL byte. */
export interface ByteFault {
  /** 0-based offset of the first bad byte in the file. */
  offset: number;
  /** What is wrong, for a person. */
  reason: string;
}

/** Reason given for bytes that are not UTF-8. */
export const INVALID_UTF8 = 'invalid UTF-8 bytes (the file must be UTF-8 encoded)';
/** Reason given for a NUL byte. */
export const NUL_BYTE = 'contains a NUL byte (is this a binary file?)';

/**
 * Checks a file's bytes, chunk by chunk, for invalid UTF-8 and NUL bytes, and queues a
 * fault for each, by file offset. Readers match faults to records by offset, so the
 * bytes reach the parser untouched. Valid chunks cost one native `isUtf8` and one
 * `indexOf`; only a bad chunk is scanned in JavaScript.
 */
export class ByteChecker {
  /** File offset of the next chunk's first byte. */
  #offset = 0;
  /** Start of a multi-byte sequence cut by the end of the previous chunk. */
  #carry: Buffer | null = null;
  #carryOffset = 0;
  #faults: ByteFault[] = [];
  /** Whether a line end (LF or CR: old Mac files end lines with CR alone) was seen since the last fault: one fault a line is enough. */
  #lineFedSinceFault = true;

  /** Checks the next chunk of the file. */
  push(chunk: Uint8Array): void {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    let start = 0;
    if (this.#carry !== null) {
      const carry = this.#carry;
      const need = sequenceLength(carry[0]!) - carry.length;
      const joined = Buffer.concat([carry, buf.subarray(0, need)]);
      start = Math.min(need, buf.length);
      if (joined.length < sequenceLength(carry[0]!)) {
        this.#carry = joined;
        this.#offset += buf.length;
        return;
      }
      this.#carry = null;
      this.#scan(joined, this.#carryOffset);
    }
    const end = buf.length - incompleteTail(buf, start);
    const body = buf.subarray(start, end);
    if (!isUtf8Fast(body) || body.indexOf(0) !== -1) {
      this.#scan(body, this.#offset + start);
    } else if (!this.#lineFedSinceFault && (body.indexOf(10) !== -1 || body.indexOf(13) !== -1)) {
      this.#lineFedSinceFault = true;
    }
    if (end < buf.length) {
      // Copied so that the queue never pins a whole chunk.
      this.#carry = Buffer.from(buf.subarray(end));
      this.#carryOffset = this.#offset + end;
    }
    this.#offset += buf.length;
  }

  /** Marks the end of the file: a sequence still cut short is a fault. */
  end(): void {
    if (this.#carry !== null) {
      this.#add(this.#carryOffset, INVALID_UTF8);
      this.#carry = null;
    }
  }

  /** Removes and returns the first fault before `offset`, dropping any others before it. */
  takeBefore(offset: number): ByteFault | undefined {
    const faults = this.#faults;
    if (faults.length === 0 || faults[0]!.offset >= offset) return undefined;
    const first = faults[0]!;
    let n = 1;
    while (n < faults.length && faults[n]!.offset < offset) n++;
    faults.splice(0, n);
    return first;
  }

  #add(offset: number, reason: string): void {
    if (!this.#lineFedSinceFault) return;
    this.#faults.push({ offset, reason });
    this.#lineFedSinceFault = false;
  }

  /** The slow path: walks the bytes and records where they go wrong. */
  #scan(buf: Buffer, base: number): void {
    const len = buf.length;
    let i = 0;
    while (i < len) {
      const b = buf[i]!;
      if (b < 0x80) {
        if (b === 0) this.#add(base + i, NUL_BYTE);
        else if (b === 10 || b === 13) this.#lineFedSinceFault = true;
        i++;
        continue;
      }
      const n = validSequenceLength(buf, i);
      if (n === 0) {
        this.#add(base + i, INVALID_UTF8);
        i++;
      } else {
        i += n;
      }
    }
  }
}

/** Length a lead byte announces (1 for ASCII and stray bytes). */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0) return 4;
  if (lead >= 0xe0) return 3;
  if (lead >= 0xc0) return 2;
  return 1;
}

/** Bytes at the end of `buf` (after `start`) that begin a sequence the chunk cuts short. */
function incompleteTail(buf: Buffer, start: number): number {
  for (let k = 1; k <= 3 && buf.length - k >= start; k++) {
    const b = buf[buf.length - k]!;
    if ((b & 0xc0) === 0x80) continue;
    // Bytes that can never lead a sequence are left for the scan to report at once.
    return b >= 0xc2 && b <= 0xf4 && sequenceLength(b) > k ? k : 0;
  }
  return 0;
}

/** Length of the valid UTF-8 sequence at `i`, or 0 when it is invalid (RFC 3629 table). */
function validSequenceLength(buf: Buffer, i: number): number {
  const b = buf[i]!;
  let n: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) n = 2;
  else if (b >= 0xe0 && b <= 0xef) {
    n = 3;
    if (b === 0xe0) lo = 0xa0;
    if (b === 0xed) hi = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    n = 4;
    if (b === 0xf0) lo = 0x90;
    if (b === 0xf4) hi = 0x8f;
  } else return 0;
  if (i + n > buf.length) return 0;
  const second = buf[i + 1]!;
  if (second < lo || second > hi) return 0;
  for (let k = 2; k < n; k++) {
    if ((buf[i + k]! & 0xc0) !== 0x80) return 0;
  }
  return n;
}

function isUtf8Fast(buf: Buffer): boolean {
  return buf.length === 0 || isUtf8(buf);
}
