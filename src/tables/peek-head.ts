/** The first bytes of a stream, and the whole stream again from its start. */
export interface PeekedStream {
  /** At least the bytes asked for, unless the stream is shorter (then all of it). */
  head: Buffer;
  /** Every chunk of the stream, `head` first; returning early returns the source. */
  chunks: AsyncGenerator<Buffer>;
  /** Releases the source when `chunks` will not be read. */
  cancel(): Promise<void>;
}

/**
 * Reads chunks of `source` until it holds `bytes` bytes (or the stream ends), so a
 * reader can look at a file's start (encoding, format, CSV dialect) and then read it
 * whole, without reading it twice.
 */
export async function peekHead(source: AsyncIterable<Uint8Array>, bytes: number): Promise<PeekedStream> {
  const it = source[Symbol.asyncIterator]();
  const parts: Buffer[] = [];
  let size = 0;
  let done = false;
  while (size < bytes) {
    const next = await it.next();
    if (next.done) {
      done = true;
      break;
    }
    const b = asBuffer(next.value);
    parts.push(b);
    size += b.length;
  }
  const head = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  async function* replay(): AsyncGenerator<Buffer> {
    try {
      if (head.length > 0) yield head;
      while (!done) {
        const next = await it.next();
        if (next.done) done = true;
        else yield asBuffer(next.value);
      }
    } finally {
      if (!done) await it.return?.();
    }
  }
  return { head, chunks: replay(), cancel: async () => void (await it.return?.()) };
}

/** A chunk as a Buffer, without copying. */
export function asBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
}
