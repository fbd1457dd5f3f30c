import { InputError } from '../errors.js';
import { Store, type BatchRecord } from '../store/index.js';
import { existsSync } from 'node:fs';

/** Opens an existing database (never creating one by accident) and finds a batch: named, or the newest. */
export function openBatch(dbPath: string, name: string | undefined, kind: BatchRecord['kind'] = 'runs'): { store: Store; batch: BatchRecord } {
  if (!existsSync(dbPath)) throw new InputError(`${dbPath}: no such database (pass --db PATH)`);
  const store = Store.open(dbPath);
  const batch = name ? store.findBatch(name) : store.batches.latest(kind);
  if (batch && batch.kind !== kind) {
    store.close();
    throw new InputError(
      kind === 'runs'
        ? `batch "${batch.name}" is a model batch: use resq models status/export, or resq models batch to resume it`
        : `batch "${batch.name}" is a batch of agent runs: use resq status/export/resume`,
    );
  }
  if (!batch) {
    const names = store.batches.list().map((b) => b.name);
    store.close();
    throw new InputError(
      name
        ? `${dbPath}: no batch named "${name}"${names.length ? ` (batches: ${names.slice(0, 10).join(', ')})` : ''}`
        : `${dbPath}: no batch yet (start one with resq run)`,
    );
  }
  return { store, batch };
}
