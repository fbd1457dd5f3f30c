import { mkdir, realpath } from 'node:fs/promises';
import type { BatchRecord, FileStore } from '../store/index.js';
import { batchFolderName, isInside, resolveInside, safeFolderName, UnsafePathError } from './safe-name.js';
import { discardStalePartials } from './write-file.js';

/**
 * The folders downloads go to: `<out>/<batch>-<start of id>/<item id>/`, each made once,
 * proved (symlinks resolved) to lie inside `out`, stale temp files discarded.
 */
export class OutFolders {
  readonly #store: FileStore;
  readonly #batchFolders = new Map<string, Promise<string>>();
  readonly #ready = new Map<string, Promise<void>>();

  constructor(store: FileStore) {
    this.#store = store;
  }

  /** The folder of an item's files under `out`, ready to write into. */
  async itemFolder(batch: BatchRecord, out: string, itemId: string): Promise<string> {
    const folder = resolveInside(await this.#batchFolder(batch, out), safeFolderName(itemId, 'item'));
    await this.#prepare(out, folder);
    return folder;
  }

  /**
   * The folder of a batch's files under `out`: `<name>-<start of id>`, unique across
   * databases; a batch with files already in the older `<out>/<name>/` keeps that folder.
   */
  #batchFolder(batch: BatchRecord, out: string): Promise<string> {
    const key = `${batch.id}\u0000${out}`;
    let folder = this.#batchFolders.get(key);
    if (!folder) {
      folder = (async () => {
        const legacy = resolveInside(out, safeFolderName(batch.name, 'batch'));
        const paths = await this.#store.filePaths(batch.id);
        return paths.some((p) => isInside(legacy, p.path)) ? legacy : resolveInside(out, batchFolderName(batch.name, batch.id));
      })();
      folder.catch(() => this.#batchFolders.delete(key));
      this.#batchFolders.set(key, folder);
    }
    return folder;
  }

  /** Creates a folder once, proves (symlinks resolved) it is inside `out`, and discards stale temp files. */
  #prepare(out: string, folder: string): Promise<void> {
    let ready = this.#ready.get(folder);
    if (!ready) {
      ready = (async () => {
        await mkdir(folder, { recursive: true });
        const [realOut, realFolder] = await Promise.all([realpath(out), realpath(folder)]);
        if (!isInside(realOut, realFolder)) throw new UnsafePathError(`refusing to write into ${JSON.stringify(folder)}: it resolves outside ${JSON.stringify(out)}`);
        await discardStalePartials(folder);
      })();
      ready.catch(() => this.#ready.delete(folder));
      this.#ready.set(folder, ready);
    }
    return ready;
  }
}
