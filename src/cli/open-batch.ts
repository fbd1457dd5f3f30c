import { InputError } from '../errors.js';
import { type BatchRecord, maskLocation, openStore, type OpenStoreOptions, type Store } from '../store/index.js';
import { checkDbPath } from './db-path.js';
import { oneLine } from '../text/printable.js';
import { commandHint } from '../text/command-hint.js';

/**
 * Opens an existing store (never creating a SQLite file by accident): a folder, a file that
 * is not a database or no file at all is a plain user error before anything is opened.
 */
export async function openExistingStore(db: string, opts: Pick<OpenStoreOptions, 'onWait' | 'leaseMs'> = {}): Promise<Store> {
  checkDbPath(db, { mustExist: true });
  return openStore(db, opts);
}

/** Opens an existing database and finds a batch: named, or the newest. */
export async function openBatch(
  db: string,
  name: string | undefined,
  kind: BatchRecord['kind'] = 'runs',
  opts: Pick<OpenStoreOptions, 'onWait' | 'leaseMs'> = {},
): Promise<{ store: Store; batch: BatchRecord }> {
  const store = await openExistingStore(db, opts);
  try {
    let batch = name ? await store.findBatch(name) : await store.latestBatch(kind);
    // The newest batch an agent judge made (`<name>.judge`) is not the one meant: the newest other one is.
    if (!name && batch?.settings.judgeOf !== undefined) batch = (await store.listBatches(kind)).find((b) => b.settings.judgeOf === undefined) ?? batch;
    if (batch && batch.kind !== kind)
      throw new InputError(
        kind === 'runs'
          ? `this is a model batch (resq models status, export and batch act on it): ${commandHint(['resq', 'models', 'status', batch.name], { db })}`
          : `this is a batch of agent runs (resq status, export and resume act on it): ${commandHint(['resq', 'status', batch.name], { db })}`,
      );
    if (!batch) {
      const names = (await store.listBatches()).map((b) => b.name);
      const where = maskLocation(db);
      throw new InputError(
        name
          ? `${where}: no batch named "${name}"${names.length ? ` (batches: ${names.slice(0, 10).join(', ')})` : ''}`
          : `${where}: no batch yet (start one with resq run)`,
      );
    }
    return { store, batch };
  } catch (e) {
    await store.close();
    throw e;
  }
}

/** A batch of agent runs by name on an open store, for a flag naming more than one: else a user error naming the flag. */
export async function findRunsBatch(store: Store, name: string, flag: string): Promise<BatchRecord> {
  const b = await store.findBatch(name);
  if (!b) throw new InputError(`${flag}: no batch named "${oneLine(name, 80)}"`);
  if (b.kind !== 'runs') throw new InputError(`${flag}: batch "${oneLine(b.name, 80)}" is a model batch, not one of agent runs`);
  return b;
}

/** Opens an existing database and picks the named batch (of any kind), or every batch. */
export async function openBatches(db: string, name: string | undefined): Promise<{ store: Store; batches: BatchRecord[] }> {
  const store = await openExistingStore(db);
  try {
    if (!name) return { store, batches: await store.listBatches() };
    const batch = await store.findBatch(name);
    if (batch) return { store, batches: [batch] };
    const names = (await store.listBatches()).map((b) => b.name);
    throw new InputError(`${maskLocation(db)}: no batch named "${name}"${names.length ? ` (batches: ${names.slice(0, 10).join(', ')})` : ''}`);
  } catch (e) {
    await store.close();
    throw e;
  }
}
