import { createHash, type Hash } from 'node:crypto';
import { type FileHandle, open } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { escapeControls } from '../text/escape-text.js';

/** A hash fed on the way, and whether it saw the file to its end (else hash the file apart). */
export interface HashTap {
  hash: Hash;
  complete: boolean;
}

const CHUNK_BYTES = 256 * 1024;

/**
 * The file's bytes in chunks, fed to `tap` on the way when given. The handle is closed
 * when the chunks end or the reader stops early (the generator's finally).
 * @throws {InputError} (from the generator) when the file cannot be opened or is not a regular file.
 */
export async function* fileChunks(path: string, tap?: HashTap): AsyncGenerator<Buffer> {
  const handle = await openFile(path);
  const stream = handle.createReadStream({ autoClose: false, highWaterMark: CHUNK_BYTES, start: 0 });
  try {
    for await (const chunk of stream) {
      tap?.hash.update(chunk as Buffer);
      yield chunk as Buffer;
    }
    if (tap) tap.complete = true;
  } finally {
    stream.destroy();
    await handle.close();
  }
}

/** Opens a file for reading, turning the usual failures into problems a person can act on. */
async function openFile(path: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    // The name is the user's, as typed: no escape sequence in it reaches a terminal.
    throw new InputError([{ file: escapeControls(path), reason: `cannot open: ${escapeControls(describeFsError(err))}` }], { cause: err });
  }
  const stat = await handle.stat();
  if (!stat.isFile()) {
    await handle.close();
    throw new InputError([{ file: escapeControls(path), reason: 'not a regular file' }]);
  }
  return handle;
}

function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  return err instanceof Error ? err.message : String(err);
}

/**
 * sha256 (hex) of a file's bytes, streamed.
 * @throws {InputError} when the file cannot be opened or is not a regular file.
 */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fileChunks(path)) hash.update(chunk);
  return hash.digest('hex');
}
