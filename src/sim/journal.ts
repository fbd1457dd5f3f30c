import { closeSync, ftruncateSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import type { FileRecord, ModelRunRecord, RunRecord, ThreadRecord } from './records.js';
import type { SavedModelRun, SavedRun } from './snapshot-shape.js';
import type { SimStore } from './store.js';

/** A thread as a journal record names it: everything but its runs (each run record adds itself). */
type ThreadHead = Omit<ThreadRecord, 'runIds'>;

/**
 * One change the simulator acknowledged or cannot work out again, as the journal keeps it.
 * What follows from the clock between them (a run's text deltas and tool events) is not
 * kept: a restored run carries on from the step its snapshot had and sends the same events.
 */
export type JournalEntry =
  /** A run admitted (POST /runs, or a respond: its parent is then answered by it), its thread and idempotency key. */
  | { k: 'run'; run: SavedRun; thread: ThreadHead; key: string | null }
  /** A run moved to `cancelling` after `progress` steps. */
  | { k: 'cancel'; id: string; progress: number }
  /** A file a run made (its `index`-th), after `progress` steps: its id is in what the run shows. */
  | { k: 'file'; id: string; progress: number; index: number; file: FileRecord }
  /** A run that finished: its status (`requires_action` for a pause) and when. */
  | { k: 'end'; id: string; status: string; completedAt: number; progress: number }
  | { k: 'thread-deleted'; id: string }
  /** A model run as it stands (admitted, or its job done), the files it made, its idempotency key. */
  | { k: 'model'; run: SavedModelRun; files: FileRecord[]; key: string | null }
  /** The clock was moved: its whole offset. */
  | { k: 'clock'; offsetMs: number };

/** A journal line: an entry and its number (numbers grow over the life of a state file). */
export type JournalRecord = JournalEntry & { n: number };

/** The journal of a simulator state file. */
export function journalPathOf(statePath: string): string {
  return `${statePath}.journal`;
}

/**
 * The append-only journal beside a simulator state file. Each change is one JSON line,
 * written (a write(2), no fsync: it outlives a kill of the process, not of the machine)
 * before the reply that acknowledges it. A snapshot holds every record up to its
 * `journalSeq`; the file is emptied once one is written.
 */
export class SimJournal {
  readonly path: string;
  #fd: number | null;
  #seq: number;

  /** Opens (or creates) the journal for appending; `seq` is the number of the last record already kept. */
  constructor(path: string, seq: number) {
    this.path = path;
    this.#fd = openSync(path, 'a', 0o600);
    this.#seq = seq;
  }

  /** Number of the last record written. */
  get seq(): number {
    return this.#seq;
  }

  /** Appends one record. Nothing once closed (a closed simulator keeps nothing more). */
  append(e: JournalEntry): void {
    const fd = this.#fd;
    if (fd === null) return;
    const buf = Buffer.from(`${JSON.stringify({ n: ++this.#seq, ...e })}\n`);
    for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off);
  }

  /** A run admitted, with its thread and (scoped) idempotency key. */
  runStarted(run: RunRecord, thread: ThreadRecord, key: string | null): void {
    if (this.#fd === null) return;
    const { runIds: _r, ...head } = thread;
    this.append({ k: 'run', run: savedRun(run), thread: head, key });
  }

  /** A run moved to `cancelling`. */
  cancelled(run: RunRecord): void {
    this.append({ k: 'cancel', id: run.id, progress: run.progress });
  }

  /** A file the run made, its `index`-th. */
  fileMade(run: RunRecord, index: number, file: FileRecord): void {
    this.append({ k: 'file', id: run.id, progress: run.progress, index, file });
  }

  /** A run finished (or paused). */
  ended(run: RunRecord): void {
    this.append({ k: 'end', id: run.id, status: run.status, completedAt: run.completedAt ?? 0, progress: run.progress });
  }

  /** A thread deleted. */
  threadDeleted(id: string): void {
    this.append({ k: 'thread-deleted', id });
  }

  /** A model run as it stands, with the files it made and its (scoped) idempotency key. */
  modelRun(run: ModelRunRecord, files: FileRecord[], key: string | null): void {
    if (this.#fd === null) return;
    const { done: _d, ...m } = run;
    this.append({ k: 'model', run: m, files, key });
  }

  /** The clock's offset changed. */
  clockMoved(offsetMs: number): void {
    this.append({ k: 'clock', offsetMs });
  }

  /** Empties the file: a snapshot now holds every record (up to {@link seq}). */
  truncate(): void {
    if (this.#fd !== null) ftruncateSync(this.#fd, 0);
  }

  /** Closes the file; `remove` deletes it too (a snapshot holds everything). */
  close(remove = false): void {
    if (this.#fd === null) return;
    closeSync(this.#fd);
    this.#fd = null;
    if (remove) rmSync(this.path, { force: true });
  }
}

/** A run as saved: no live timeline, listeners or pause time (a performance.now() of another process). */
export function savedRun(run: RunRecord): SavedRun {
  const { listeners: _l, live: _t, ...r } = run;
  return { ...r, pausedAt: null };
}

/**
 * The records of a journal after record `after` (those a snapshot does not hold yet), in
 * order. A last line cut short (a kill in the middle of its write, so never acknowledged)
 * is left out; any other line that is not a record is an error.
 */
export function readJournal(path: string, after: number): JournalRecord[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const lines = text.split('\n');
  const records: JournalRecord[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    let rec: JournalRecord;
    try {
      rec = JSON.parse(line) as JournalRecord;
    } catch {
      // Only the last line can be cut short; it has no newline after it.
      if (i === lines.length - 1) break;
      throw new Error(`${path}: line ${i + 1} is not a simulator journal record`);
    }
    if (typeof rec?.n !== 'number' || typeof rec.k !== 'string') throw new Error(`${path}: line ${i + 1} is not a simulator journal record`);
    if (rec.n > after) records.push(rec);
  }
  return records;
}

/**
 * Applies journal records to a store filled from the snapshot they follow (before its runs
 * carry on). Returns the clock offset the last `clock` record set, if any.
 */
export function applyJournal(store: SimStore, records: readonly JournalRecord[]): { clockOffsetMs: number | null } {
  let clockOffsetMs: number | null = null;
  for (const rec of records) {
    switch (rec.k) {
      case 'run': {
        const { run: saved, thread: head, key } = rec;
        if (store.runs.has(saved.id)) break;
        const run: RunRecord = { ...saved, live: null, listeners: null };
        store.runs.set(run.id, run);
        let thread = store.threads.get(head.id);
        if (!thread) store.threads.set(head.id, (thread = { ...head, runIds: [] }));
        if (!thread.runIds.includes(run.id)) thread.runIds.push(run.id);
        thread.updatedAt = Math.max(thread.updatedAt, head.updatedAt);
        if (head.seq > store.threadSeq) store.restoreThreadSeq(head.seq);
        if (run.parentId !== null) {
          const parent = store.runs.get(run.parentId);
          if (parent) parent.answeredBy = run.id;
        }
        if (key !== null) store.idempotency.set(key, run.id);
        break;
      }
      case 'cancel': {
        const run = store.runs.get(rec.id);
        if (run && run.status === 'running') {
          run.status = 'cancelling';
          run.progress = Math.max(run.progress, rec.progress);
        }
        break;
      }
      case 'file': {
        store.files.set(rec.file.id, rec.file);
        const run = store.runs.get(rec.id);
        if (!run) break;
        const ids = (run.fileIds ??= []);
        ids[rec.index] = rec.file.id;
        run.progress = Math.max(run.progress, rec.progress);
        break;
      }
      case 'end': {
        const run = store.runs.get(rec.id);
        if (!run) break;
        run.status = rec.status;
        run.completedAt = rec.completedAt;
        run.progress = Math.max(run.progress, rec.progress);
        const thread = store.threads.get(run.threadId);
        if (thread) thread.updatedAt = rec.completedAt;
        break;
      }
      case 'thread-deleted':
        store.threads.delete(rec.id);
        break;
      case 'model': {
        for (const f of rec.files) store.files.set(f.id, f);
        store.modelRuns.set(rec.run.id, { ...rec.run, done: Promise.resolve() });
        if (rec.key !== null) store.idempotency.set(rec.key, rec.run.id);
        break;
      }
      case 'clock':
        clockOffsetMs = rec.offsetMs;
        break;
    }
  }
  return { clockOffsetMs };
}
