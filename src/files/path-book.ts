import { dirname, join, resolve } from 'node:path';

/** The owner of a path on disk that no file of the batch wrote. */
const FOREIGN = '\u0000on disk';
import { uniqueName } from './safe-name.js';

function keyOf(path: string): string {
  // macOS and Windows folders ignore case (and macOS normalisation): so do collisions.
  return resolve(path).normalize('NFC').toLowerCase();
}

/**
 * Which file of a batch owns which path. A name is taken when another file of the batch
 * owns it (recorded in the store, or claimed by a download in flight); a file keeps the
 * path it already owns. Names compare case-insensitively.
 */
export class PathBook {
  readonly #owner = new Map<string, string>();

  /** Starts from the paths the store already records (`{ id, path }`). */
  constructor(entries: Iterable<{ id: string; path: string }> = []) {
    for (const e of entries) this.#owner.set(keyOf(e.path), e.id);
  }

  /**
   * Claims `name` in `folder` for `fileId`, or the first free `name (n).ext`. When the
   * file already owns a path in this folder (`current`), that path is kept.
   */
  claim(folder: string, name: string, fileId: string, current: string | null = null): string {
    if (current && keyOf(dirname(current)) === keyOf(folder) && this.#owner.get(keyOf(current)) === fileId) return resolve(current);
    const chosen = uniqueName(name, (candidate) => {
      const owner = this.#owner.get(keyOf(join(folder, candidate)));
      return owner !== undefined && owner !== fileId;
    });
    const path = resolve(folder, chosen);
    this.#owner.set(keyOf(path), fileId);
    return path;
  }

  /**
   * The path `fileId` claimed holds a file on disk that resq did not write for it: marks
   * that path taken for good and claims the next free `name (n).ext` in its folder.
   */
  claimNext(taken: string, name: string, fileId: string): string {
    this.#owner.set(keyOf(taken), FOREIGN);
    return this.claim(dirname(taken), name, fileId);
  }

  /** Gives a path back when the download that claimed it did not complete. */
  release(path: string, fileId: string): void {
    if (this.#owner.get(keyOf(path)) === fileId) this.#owner.delete(keyOf(path));
  }

  /** Whether `fileId` owns `path`. */
  owns(path: string, fileId: string): boolean {
    return this.#owner.get(keyOf(path)) === fileId;
  }
}
