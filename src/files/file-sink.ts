import { createHash } from 'node:crypto';
import { finished, type Readable } from 'node:stream';

/** Size and SHA-256 (hex) of some bytes. */
export interface Digest {
  bytes: number;
  sha256: string;
}

/** Where bytes go: an open `FileHandle`, written at explicit positions from 0. */
export interface WritevTarget {
  writev(buffers: Buffer[], position: number): Promise<{ bytesWritten: number }>;
}

/**
 * Bytes one `writev` takes at most: larger writes cost the kernel more system time, smaller
 * ones the main thread more in dispatch (measured: docs/performance.md).
 */
export const MAX_WRITE_BYTES = 256 * 1024;
/**
 * Writes in flight at once, each at its own position. With one, every write waited for the
 * main thread to take the previous one's completion (busy hashing, or in a GC pause), and the
 * disk idled meanwhile. Three leave one of libuv's four threads free.
 */
export const WRITES_IN_FLIGHT = 3;
/** Bytes waiting for the disk at which the body is paused (resumed below it): memory stays flat. */
export const MAX_WAITING_BYTES = 2 * 1024 * 1024;

/**
 * Reads `body` to its end into `fh` (from offset 0), hashing each chunk as it arrives. The
 * chunks themselves are written, never copied: while {@link WRITES_IN_FLIGHT} writes are in
 * flight the next chunks gather, and go together (up to {@link MAX_WRITE_BYTES}) in the next
 * `writev`. With {@link MAX_WAITING_BYTES} waiting the body is paused until the disk catches
 * up. On a body error, a write error or `signal` the body is destroyed and the promise
 * rejects, once no write is in flight any more.
 */
export function drainToFile(body: Readable, fh: WritevTarget, signal?: AbortSignal): Promise<Digest> {
  return new Promise<Digest>((resolve, reject) => {
    const hash = createHash('sha256');
    let bytes = 0;
    let waiting: Buffer[] = [];
    let waitingBytes = 0;
    let writing = 0;
    let position = 0;
    let paused = false;
    let ended = false;
    let settled = false;
    let failure: { err: unknown } | null = null;

    const settle = (): void => {
      if (writing > 0 || settled) return;
      settled = true;
      body.off('data', onData);
      signal?.removeEventListener('abort', onAbort);
      stopWatching();
      if (failure) reject(failure.err);
      else resolve({ bytes, sha256: hash.digest('hex') });
    };
    const fail = (err: unknown): void => {
      failure ??= { err };
      if (!body.destroyed) body.destroy();
      settle();
    };
    /**
     * Starts writes while fewer than {@link WRITES_IN_FLIGHT} are in flight: the first at
     * once, more only for a whole {@link MAX_WRITE_BYTES} (or the end), so writes stay large.
     */
    const pump = (): void => {
      while (!failure && waiting.length > 0 && writing < WRITES_IN_FLIGHT && (writing === 0 || ended || waitingBytes >= MAX_WRITE_BYTES)) {
        let n = 0;
        let size = 0;
        while (n < waiting.length && size < MAX_WRITE_BYTES) size += waiting[n++]!.length;
        const batch = n === waiting.length ? waiting : waiting.slice(0, n);
        waiting = n === waiting.length ? [] : waiting.slice(n);
        waitingBytes -= size;
        writing++;
        const at = position;
        position += size;
        writeAll(fh, batch, at).then(
          () => {
            writing--;
            if (failure) return settle();
            if (paused && waitingBytes < MAX_WAITING_BYTES) {
              paused = false;
              body.resume();
            }
            pump();
          },
          (err: unknown) => {
            writing--;
            fail(err);
          },
        );
      }
      if (ended && waiting.length === 0) settle();
    };
    const onData = (data: Buffer | string): void => {
      const chunk = typeof data === 'string' ? Buffer.from(data) : data;
      if (chunk.length === 0) return;
      hash.update(chunk);
      bytes += chunk.length;
      waiting.push(chunk);
      waitingBytes += chunk.length;
      if (waitingBytes >= MAX_WAITING_BYTES && !paused) {
        paused = true;
        body.pause();
      }
      pump();
    };
    const onAbort = (): void => fail(signal?.reason ?? new Error('aborted'));
    const stopWatching = finished(body, (err) => {
      if (err) return fail(err);
      ended = true;
      pump();
    });
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    body.on('data', onData);
  });
}

/** `writev` of every byte of `bufs`, going on after a short write. */
async function writeAll(fh: WritevTarget, bufs: Buffer[], at: number): Promise<void> {
  let left = bufs;
  while (left.length > 0) {
    let { bytesWritten } = await fh.writev(left, at);
    at += bytesWritten;
    if (bytesWritten === 0) throw new Error('the file took no bytes');
    const rest: Buffer[] = [];
    for (const b of left) {
      if (bytesWritten >= b.length) bytesWritten -= b.length;
      else {
        rest.push(bytesWritten > 0 ? b.subarray(bytesWritten) : b);
        bytesWritten = 0;
      }
    }
    left = rest;
  }
}
