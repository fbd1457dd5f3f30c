import type { BatchRecord, ReadStore } from '../store/index.js';

/** An item whose run ended in a status resq does not know, kept verbatim. */
export interface UnknownFinal {
  id: string;
  status: string;
}

/**
 * Items counted `completed` whose run finished in a status other than `completed` (the spec
 * lists only some statuses): they are shown apart, as "finished with status X". Pure.
 */
export function unknownFinals(items: Iterable<{ id: string; state: string; runStatus: string | null }>): UnknownFinal[] {
  const out: UnknownFinal[] = [];
  for (const it of items)
    if (it.state === 'completed' && it.runStatus !== null && it.runStatus !== 'completed') out.push({ id: it.id, status: it.runStatus });
  return out;
}

/**
 * {@link unknownFinals} of a batch: only the completed items whose run status is another
 * than `completed` are read (reading every completed item held a million-item batch's
 * answers in memory at the end of a run: 900 MiB).
 */
export async function listUnknownFinals(store: ReadStore, batch: Pick<BatchRecord, 'id'>): Promise<UnknownFinal[]> {
  return unknownFinals(await store.listItems(batch.id, { states: ['completed'], runStatusOtherThan: 'completed' }));
}

/** `2 finished with status weird, 1 finished with status done`: counts by status, most first. */
export function describeUnknownFinals(u: UnknownFinal[]): string {
  const by = new Map<string, number>();
  for (const x of u) by.set(x.status, (by.get(x.status) ?? 0) + 1);
  return [...by.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([s, n]) => `${n} finished with status ${s}`)
    .join(', ');
}
