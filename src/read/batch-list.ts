// Which batches a database holds, for a front end deciding what a refused command leaves behind.
import type { BatchStore } from '../store/index.js';

/** Whether the store holds no batch at all: a database a refused command made holds none, and may go. */
export async function holdsNoBatch(store: Pick<BatchStore, 'listBatches'>): Promise<boolean> {
  return (await store.listBatches()).length === 0;
}
