import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readdir, rename, unlink } from 'node:fs/promises';
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

/**
 * Streams `body` to a temporary file beside `finalPath` while hashing it (see
 * {@link drainToFile}: batched writes, the body paused while they catch up, so memory stays
 * flat), checks the size against `expectedBytes` when known, fsyncs it, renames it into
 * place and fsyncs the folder. On any failure the temporary file is removed and the final
 * path is untouched.
 */
export async function writeAtomically(body: Readable, finalPath: string, o: { signal?: AbortSignal; expectedBytes?: number | null } = {}): Promise<Digest> {
  const temp = tempPathFor(finalPath);
  ACTIVE_TEMPS.add(temp);
  try {
    const fh = await open(temp, 'wx');
    let d: Digest;
    try {
      d = await drainToFile(body, fh, o.signal);
      if (o.expectedBytes != null && d.bytes !== o.expectedBytes)
        throw new IncompleteBodyError(`received ${d.bytes} bytes, Content-Length said ${o.expectedBytes}`);
      // After the rename the bytes are on disk, not only in cache.
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(temp, finalPath);
    await fsyncFolder(dirname(finalPath));
    return d;
  } catch (err) {
    await unlink(temp).catch(() => {});
    throw err;
  } finally {
    ACTIVE_TEMPS.delete(temp);
  }
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
