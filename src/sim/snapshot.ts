import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { SimClock } from './clock.js';
import { applyJournal, savedRun, type JournalRecord } from './journal.js';
import { MODELS } from './model-catalog.js';
import type { ModelJobs } from './model-jobs.js';
import type { FileRecord, ModelRunRecord, RunRecord, ThreadRecord } from './records.js';
import type { RunEngine } from './run-engine.js';
import { fromVersion1, type SnapshotV1 } from './snapshot-v1.js';
import type { SimSnapshot } from './snapshot-shape.js';
import type { SimStore } from './store.js';

/** Takes a snapshot of the state (plain data, safe to serialise); `journalSeq` names the last journal record it holds. */
export function takeSnapshot(store: SimStore, clock: SimClock, origin: string, journalSeq?: number): SimSnapshot {
  const snap: SimSnapshot = {
    version: 2,
    origin,
    clockOffsetMs: clock.offsetMs,
    threadSeq: store.threadSeq,
    runs: [...store.runs.values()].map(savedRun),
    threads: [...store.threads.values()],
    files: [...store.files.values()],
    modelRuns: [...store.modelRuns.values()].map(({ done: _d, ...m }) => m),
    idempotency: [...store.idempotency.entries()],
  };
  if (journalSeq !== undefined) snap.journalSeq = journalSeq;
  return snap;
}

/** Reads a snapshot file (converting a version 1 one); null when there is none. A file that is not a snapshot is an error. */
export function readSnapshot(path: string): SimSnapshot | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const snap = JSON.parse(text) as SimSnapshot | SnapshotV1;
  if ((snap?.version !== 1 && snap?.version !== 2) || !Array.isArray(snap.runs)) throw new Error(`${path}: not a simulator state file`);
  return snap.version === 1 ? fromVersion1(snap) : snap;
}

/** Writes a snapshot atomically (temporary name, then rename): a kill never leaves half a file. */
export function writeSnapshot(path: string, snap: SimSnapshot): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, JSON.stringify(snap));
  renameSync(tmp, path);
}

/**
 * Puts a snapshot back into an empty simulator served at `origin` (URLs are moved there when
 * the port changed), applies the journal records written after it (served at the same
 * origin), and carries on with the runs and jobs that were going.
 */
export function restoreSnapshot(
  snap: SimSnapshot,
  into: { store: SimStore; clock: SimClock; engine: RunEngine; models: ModelJobs; origin: string },
  journal: readonly JournalRecord[] = [],
): void {
  const moved = <T>(x: T): T => (snap.origin === into.origin ? x : (JSON.parse(JSON.stringify(x).split(snap.origin).join(into.origin)) as T));
  const s = moved(snap);
  const { store } = into;
  into.clock.restoreOffset(s.clockOffsetMs);
  store.restoreThreadSeq(s.threadSeq);
  for (const t of s.threads) store.threads.set(t.id, t);
  for (const f of s.files) store.files.set(f.id, f);
  for (const [k, v] of s.idempotency) store.idempotency.set(k, v);
  const runs: RunRecord[] = s.runs.map((r) => ({ ...r, callIds: r.callIds ?? null, fileIds: r.fileIds ?? null, live: null, listeners: null }));
  for (const r of runs) store.runs.set(r.id, r);
  for (const m of s.modelRuns) store.modelRuns.set(m.id, { ...m, done: Promise.resolve() });
  if (journal.length) {
    const { clockOffsetMs } = applyJournal(store, moved(journal));
    if (clockOffsetMs !== null) into.clock.restoreOffset(clockOffsetMs);
  }
  for (const r of store.runs.values()) into.engine.resume(r);
  for (const m of store.modelRuns.values()) into.models.resume(m, Object.hasOwn(MODELS, m.modelId) ? MODELS[m.modelId] : undefined);
}
