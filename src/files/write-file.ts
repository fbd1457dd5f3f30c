import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { BigIntStats } from 'node:fs';
import { link, lstat, open, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { ResqError } from '../errors.js';
import { drainToFile, type Digest } from './file-sink.js';

export type { Digest } from './file-sink.js';

/** The body ended with fewer or more bytes than `Content-Length` announced. Worth a retry. */
export class IncompleteBodyError extends ResqError {
  override readonly code: string = 'RESQ_INCOMPLETE_BODY';
}

// Temp files this process is writing right now: never discarded as stale.
const ACTIVE_TEMPS = new Set<string>();
const PARTIAL = /^\..*\.(\d+)-[0-9a-f]{16}\.partial$/s;

/** `.name.<pid>-<random>.partial` beside the final path: hidden, never mistaken for the file. */
export function tempPathFor(finalPath: string): string {
  return join(dirname(finalPath), `.${basename(finalPath)}.${process.pid}-${randomBytes(8).toString('hex')}.partial`);
}

/** How {@link writeAtomically} puts the file in place. */
export interface WriteOptions {
  signal?: AbortSignal;
  /** Bytes the body must have, when known. */
  expectedBytes?: number | null;
  /**
   * When a file is at the final path already: `undefined` replaces it (the file's own
   * earlier copy, being repaired); a function leaves it alone — unless it holds exactly
   * these bytes — and names the next path to try. @default undefined (replace)
   */
  nextPath?: (taken: string) => string;
}

/** A file's identity on its disk: device and inode, as decimal text (an inode may pass 2^53). */
export interface DiskIdentity {
  dev: string;
  ino: string;
}

/** The identity in a `stat` (read with `bigint: true`). */
export function identityOf(st: Pick<BigIntStats, 'dev' | 'ino'>): DiskIdentity {
  return { dev: st.dev.toString(), ino: st.ino.toString() };
}

/** Where a file was written, with its size, hash and identity on disk (the web view serves only that file). */
export interface Written extends Digest, DiskIdentity {
  path: string;
}

/**
 * Streams `body` to a temporary file beside `finalPath` while hashing it (see
 * {@link drainToFile}: batched writes, the body paused while they catch up, so memory stays
 * flat), checks the size against `expectedBytes` when known, fsyncs it, puts it in place
 * and fsyncs the folder. With `nextPath` a file already at the path is never replaced: the
 * temporary file is hard-linked to the path (which fails when anything is there, atomically),
 * and a path taken by other bytes moves on to `nextPath(path)`. On any failure the
 * temporary file is removed and the final path is untouched.
 */
export async function writeAtomically(body: Readable, finalPath: string, o: WriteOptions = {}): Promise<Written> {
  const temp = tempPathFor(finalPath);
  ACTIVE_TEMPS.add(temp);
  try {
    const fh = await open(temp, 'wx');
    let d: Digest;
    let written: DiskIdentity;
    try {
      d = await drainToFile(body, fh, o.signal);
      if (o.expectedBytes != null && d.bytes !== o.expectedBytes)
        throw new IncompleteBodyError(`received ${d.bytes} bytes, Content-Length said ${o.expectedBytes}`);
      // After the rename the bytes are on disk, not only in cache.
      await fh.sync();
      // The inode a rename or a link keeps: the identity of the file as this process wrote it.
      written = identityOf(await fh.stat({ bigint: true }));
    } finally {
      await fh.close();
    }
    const placed = o.nextPath ? await placeBeside(temp, finalPath, d, o.nextPath) : (await rename(temp, finalPath), { path: finalPath, identity: null });
    await fsyncFolder(dirname(placed.path));
    return { ...d, ...(placed.identity ?? written), path: placed.path };
  } catch (err) {
    await unlink(temp).catch(() => {});
    throw err;
  } finally {
    ACTIVE_TEMPS.delete(temp);
  }
}

/** Paths tried at most before giving up on finding a free one. */
const MAX_PLACES = 1000;

/**
 * Puts `temp` at `path` without replacing anything there: a hard link fails when the path
 * exists (no window between a check and a rename). A path holding exactly these bytes is
 * taken as this file (another worker wrote it); one holding others moves on to `nextPath`.
 * Where hard links are not supported, an existence check and a rename stand in.
 */
async function placeBeside(temp: string, first: string, d: Digest, nextPath: (taken: string) => string): Promise<{ path: string; identity: DiskIdentity | null }> {
  let path = first;
  for (let i = 0; i < MAX_PLACES; i++) {
    try {
      await link(temp, path);
      await unlink(temp);
      return { path, identity: null };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        if (!NO_LINKS.has(code ?? '')) throw err;
        if (!(await lstat(path).catch(() => null))) {
          await rename(temp, path);
          return { path, identity: null };
        }
      }
    }
    const there = await holds(path, d);
    if (there) {
      await unlink(temp);
      // The file found there (another worker's, the same bytes) is this one now.
      return { path, identity: identityOf(there) };
    }
    path = nextPath(path);
  }
  throw new Error(`no free name beside ${first} after ${MAX_PLACES} tries`);
}

/** Errors of a file system without hard links. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

/** The regular file at `path` when it holds exactly the bytes of `d`, else null. */
async function holds(path: string, d: Digest): Promise<BigIntStats | null> {
  const st = await lstat(path, { bigint: true }).catch(() => null);
  if (!st?.isFile() || st.size !== BigInt(d.bytes)) return null;
  return (await hashFile(path)).sha256 === d.sha256 ? st : null;
}

async function fsyncFolder(dir: string): Promise<void> {
  // Makes the rename durable; some file systems refuse fsync on a folder, which is harmless.
  const fh = await open(dir, 'r').catch(() => null);
  if (!fh) return;
  try {
    await fh.sync();
  } catch {
    // not supported here
  } finally {
    await fh.close();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes temporary files in `dir` left by a crashed or killed download (their process is
 * gone, or it is this process and no write of it is active). Returns the names removed.
 */
export async function discardStalePartials(dir: string): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = PARTIAL.exec(name);
    if (!m) continue;
    const path = join(dir, name);
    const pid = Number(m[1]);
    if (ACTIVE_TEMPS.has(path) || (pid !== process.pid && isAlive(pid))) continue;
    await unlink(path).then(
      () => removed.push(name),
      () => {},
    );
  }
  return removed;
}

/** Size and SHA-256 of a file on disk, streamed. */
export async function hashFile(path: string): Promise<Digest> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { bytes, sha256: hash.digest('hex') };
}
