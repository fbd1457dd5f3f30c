import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { drainToFile, MAX_WAITING_BYTES, MAX_WRITE_BYTES, WRITES_IN_FLIGHT, type WritevTarget } from '../../src/files/file-sink.js';

let dir: string;
let fh: FileHandle;
let path: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'resq-sink-'));
  path = join(dir, 'out');
  fh = await open(path, 'wx');
});
afterEach(async () => {
  await fh.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** Deterministic bytes: chunk i of `sizes`, each byte distinct enough to catch reordering. */
function body(sizes: number[]): { whole: Buffer; chunks: Buffer[] } {
  let seed = 7;
  const chunks = sizes.map((n) => {
    const b = Buffer.allocUnsafe(n);
    for (let i = 0; i < n; i++) b[i] = seed = (seed * 1103515245 + 12345) & 0xff;
    return b;
  });
  return { whole: Buffer.concat(chunks), chunks };
}

/** A byte stream (not object mode) fed `chunks` as fast as it is read, counting what it gave. */
function source(chunks: Buffer[]): Readable & { given: number } {
  let i = 0;
  const r = new Readable({
    read() {
      const c = chunks[i++];
      if (c) r.given += c.length;
      this.push(c ?? null);
    },
  }) as Readable & { given: number };
  r.given = 0;
  return r;
}

/**
 * `fh` whose writes complete after `ms` (or a random time below it, so they finish out of
 * order), writing at most `cap` bytes each (a short write beyond).
 */
function slowDisk(real: FileHandle, ms: number, o: { cap?: number; random?: boolean } = {}): WritevTarget & { written: number; calls: number; most: number } {
  let inFlight = 0;
  const disk = {
    written: 0,
    calls: 0,
    most: 0,
    async writev(bufs: Buffer[], at: number) {
      disk.calls++;
      disk.most = Math.max(disk.most, ++inFlight);
      await sleep(o.random ? Math.floor(Math.random() * ms) : ms);
      const take: Buffer[] = [];
      let room = o.cap ?? Infinity;
      for (const b of bufs) {
        if (room <= 0) break;
        take.push(b.subarray(0, Math.min(b.length, room)));
        room -= b.length;
      }
      const r = await real.writev(take, at);
      disk.written += r.bytesWritten;
      inFlight--;
      return r;
    },
  };
  return disk;
}

describe('drainToFile', () => {
  it.each([
    ['one byte at a time', Array<number>(3000).fill(1)],
    ['64 KiB chunks', Array<number>(40).fill(65536)],
    ['chunks larger than one write', [MAX_WRITE_BYTES + 1, 3 * MAX_WRITE_BYTES, 17]],
    ['mixed sizes', [1, 65536, 7, 300_000, 0, 4096, 1_500_000, 33, 65535]],
    ['an empty body', []],
  ])('writes and hashes every byte in order: %s', async (_name, sizes) => {
    const { whole, chunks } = body(sizes);
    const d = await drainToFile(source(chunks), fh);
    expect(d).toEqual({ bytes: whole.length, sha256: sha(whole) });
    await fh.close();
    expect(readFileSync(path).equals(whole)).toBe(true);
  });

  it('finishes short writes', async () => {
    const { whole, chunks } = body(Array<number>(50).fill(10_000));
    const disk = slowDisk(fh, 3, { cap: 7_777, random: true });
    const d = await drainToFile(source(chunks), disk);
    expect(d.sha256).toBe(sha(whole));
    await fh.close();
    expect(readFileSync(path).equals(whole)).toBe(true);
  });

  it('batches what arrives during a write and pauses the body while too much waits', async () => {
    const { whole, chunks } = body(Array<number>(200).fill(65536));
    const src = source(chunks);
    const disk = slowDisk(fh, 5);
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, src.given - disk.written)), 1);
    const d = await drainToFile(src, disk);
    clearInterval(watch);
    expect(d.sha256).toBe(sha(whole));
    expect(disk.calls).toBeLessThan(chunks.length / 2);
    // Waiting bytes, the writes in flight, the stream's own buffer and a chunk of slack.
    expect(most).toBeLessThanOrEqual(MAX_WAITING_BYTES + WRITES_IN_FLIGHT * MAX_WRITE_BYTES + 2 * 65536 + 16 * 1024);
    expect(disk.most).toBe(WRITES_IN_FLIGHT);
  });

  it('puts every byte in place when writes finish out of order', async () => {
    const { whole, chunks } = body(Array.from({ length: 300 }, (_, i) => 1 + ((i * 7919) % 70_000)));
    const disk = slowDisk(fh, 8, { random: true });
    const d = await drainToFile(source(chunks), disk);
    expect(d).toEqual({ bytes: whole.length, sha256: sha(whole) });
    expect(disk.most).toBeGreaterThan(1);
    await fh.close();
    expect(readFileSync(path).equals(whole)).toBe(true);
  });

  it('rejects and destroys the body when a write fails', async () => {
    const src = source(body(Array<number>(10).fill(1000)).chunks);
    const broken = { writev: async () => Promise.reject(Object.assign(new Error('no space left'), { code: 'ENOSPC' })) };
    await expect(drainToFile(src, broken)).rejects.toThrow(/no space left/);
    expect(src.destroyed).toBe(true);
  });

  it('rejects with the body error', async () => {
    async function* broken(): AsyncGenerator<Buffer> {
      yield Buffer.alloc(5000);
      throw new Error('other side closed');
    }
    await expect(drainToFile(Readable.from(broken()), fh)).rejects.toThrow(/other side closed/);
  });

  it('rejects with an error the body had before it was read', async () => {
    const src = new PassThrough();
    src.on('error', () => {});
    src.destroy(new Error('reset before reading'));
    await sleep(5);
    await expect(drainToFile(src, fh)).rejects.toThrow('reset before reading');
  });

  it('stops on abort, destroys the body and settles only after the write in flight', async () => {
    const ac = new AbortController();
    const src = source(body(Array<number>(100).fill(65536)).chunks);
    const disk = slowDisk(fh, 30);
    let inFlight = 0;
    const counted = {
      async writev(bufs: Buffer[], at: number) {
        inFlight++;
        try {
          return await disk.writev(bufs, at);
        } finally {
          inFlight--;
        }
      },
    };
    setTimeout(() => ac.abort(new Error('stop')), 10);
    await expect(drainToFile(src, counted, ac.signal)).rejects.toThrow('stop');
    expect(inFlight).toBe(0);
    expect(src.destroyed).toBe(true);
  });

  it('rejects at once with an already aborted signal', async () => {
    const src = source([Buffer.alloc(10)]);
    await expect(drainToFile(src, fh, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    expect(src.destroyed).toBe(true);
  });
});
