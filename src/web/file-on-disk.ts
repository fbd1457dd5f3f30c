import { constants, type BigIntStats } from 'node:fs';
import { lstat, open, realpath, type FileHandle } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isInside } from '../files/safe-name.js';
import type { BatchRecord, FileRecord } from '../store/index.js';

/** A file proved to be where resq put it, open for reading; or why it is not served. */
export type FileOnDisk = { ok: true; handle: FileHandle; bytes: number } | { ok: false; why: string };

/**
 * Opens a downloaded file only when it is where resq put it, as resq wrote it: its recorded
 * path lies inside the out folder recorded for its batch (`settings.download.out`), no part of
 * the path below that folder is a symlink, its real path (symlinks resolved) is inside the
 * folder's real path, it is a regular file opened without following a link, it has a single
 * link (a hard link in the out folder may name a file anywhere on the disk), its device and
 * inode are those recorded at download, and its size is the size resq recorded. Anything else
 * — a row's path pointing elsewhere, a symlink or a hard link planted in the out folder, a
 * file replaced or changed on disk — is refused with the reason (never the file's bytes).
 */
export async function openRecordedFile(batch: BatchRecord, f: Pick<FileRecord, 'path' | 'bytes' | 'dev' | 'ino'>): Promise<FileOnDisk> {
  const out = batch.settings.download?.out ?? null;
  if (out === null || !isAbsolute(out)) return { ok: false, why: 'no out folder is recorded for its batch' };
  if (f.path === null || !isAbsolute(f.path)) return { ok: false, why: 'its recorded path is not an absolute path' };
  const root = resolve(out);
  const path = resolve(f.path);
  if (!isInside(root, path)) return { ok: false, why: "its recorded path is outside the batch's out folder" };
  try {
    let at = root;
    for (const part of relative(root, path).split(sep)) {
      at = join(at, part);
      if ((await lstat(at)).isSymbolicLink()) return { ok: false, why: 'a part of its path is a symlink' };
    }
    const [realRoot, realPath] = await Promise.all([realpath(root), realpath(path)]);
    if (!isInside(realRoot, realPath)) return { ok: false, why: "its real path is outside the batch's out folder" };
  } catch (e) {
    return { ok: false, why: `it is not on disk (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})` };
  }
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    return { ok: false, why: `it cannot be opened (${(e as NodeJS.ErrnoException).code ?? 'unreadable'})` };
  }
  // The identity of what was opened (the handle), not of the path looked at before.
  const st = await handle.stat({ bigint: true });
  const why = refusalOf(st, f);
  if (why !== null) {
    await handle.close();
    return { ok: false, why };
  }
  return { ok: true, handle, bytes: Number(st.size) };
}

/** Why an open file is not the one resq wrote, or null. */
function refusalOf(st: BigIntStats, f: Pick<FileRecord, 'bytes' | 'dev' | 'ino'>): string | null {
  if (!st.isFile()) return 'it is not a regular file';
  if (st.nlink !== 1n) return `it has ${st.nlink} links (a hard link: the same file may have a name outside the out folder)`;
  // A file downloaded before resq recorded device and inode (migration 024): served on its
  // single link and its size alone, as before; its next download records them.
  if (f.dev !== null && f.ino !== null && (st.dev.toString() !== f.dev || st.ino.toString() !== f.ino))
    return 'it is not the file resq wrote (its device and inode differ: replaced since)';
  if (f.bytes === null) return 'resq recorded no size for it';
  if (st.size !== BigInt(f.bytes)) return `its size on disk (${st.size} bytes) is not the size resq recorded (${f.bytes})`;
  return null;
}
