import { randomBytes, randomUUID } from 'node:crypto';
import type { FileRecord, ModelRunRecord, RunRecord, ThreadRecord } from './records.js';

/** Days a file stays fetchable. */
export const FILE_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * In-memory state of every account. Lookups take the account and answer undefined for
 * another account's resource, so that "not yours" and "does not exist" cannot differ.
 */
export class SimStore {
  readonly runs = new Map<string, RunRecord>();
  readonly threads = new Map<string, ThreadRecord>();
  readonly files = new Map<string, FileRecord>();
  readonly modelRuns = new Map<string, ModelRunRecord>();
  /** `<account> <METHOD> <path> <key>` → id of what the first request made. */
  readonly idempotency = new Map<string, string>();
  #threadSeq = 0;
  /** Bumped on every change worth saving (see snapshot.ts). */
  version = 0;

  /** Marks the state changed. */
  touch(): void {
    this.version++;
  }

  /** The thread counter, for a snapshot. */
  get threadSeq(): number {
    return this.#threadSeq;
  }

  /** Puts the thread counter back from a snapshot. */
  restoreThreadSeq(n: number): void {
    this.#threadSeq = n;
  }

  /** The account's run, or undefined. */
  run(account: string, id: string): RunRecord | undefined {
    const r = this.runs.get(id);
    return r && r.account === account ? r : undefined;
  }

  /** The account's thread, or undefined (also once deleted). */
  thread(account: string, id: string): ThreadRecord | undefined {
    const t = this.threads.get(id);
    return t && t.account === account ? t : undefined;
  }

  /** The file, unless it belongs to someone else or is past its 30 days at `now`. */
  file(account: string, id: string, now: number): FileRecord | undefined {
    const f = this.files.get(id);
    if (!f || f.account !== account) return undefined;
    return now > f.createdAt + FILE_RETENTION_MS ? undefined : f;
  }

  /** The account's model run, or undefined. */
  modelRun(account: string, id: string): ModelRunRecord | undefined {
    const m = this.modelRuns.get(id);
    return m && m.account === account ? m : undefined;
  }

  /** Opens a new thread titled after its first message. */
  newThread(account: string, firstMessage: string, now: number): ThreadRecord {
    const t: ThreadRecord = {
      id: randomUUID(),
      account,
      title: titleOf(firstMessage),
      seq: ++this.#threadSeq,
      updatedAt: now,
      runIds: [],
    };
    this.threads.set(t.id, t);
    return t;
  }

  /** Removes a thread for good; uuids are never handed out twice, so its id is never reused. */
  deleteThread(id: string): void {
    this.threads.delete(id);
    this.touch();
  }

  /** Whether any run of the thread is still going (running or cancelling). */
  isThreadBusy(t: ThreadRecord): boolean {
    return t.runIds.some((id) => {
      const s = this.runs.get(id)?.status;
      return s === 'running' || s === 'cancelling';
    });
  }

  /** The account's threads, newest first. */
  threadsOf(account: string): ThreadRecord[] {
    return [...this.threads.values()]
      .filter((t) => t.account === account)
      .sort((a, b) => b.updatedAt - a.updatedAt || b.seq - a.seq);
  }
}

/** A new file id. */
export function newFileId(): string {
  return `file_${randomBytes(12).toString('hex')}`;
}

/** A new model run id. */
export function newModelRunId(): string {
  return `mrun_${randomBytes(12).toString('hex')}`;
}

const TITLE_MAX = 60;

function titleOf(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= TITLE_MAX ? oneLine : `${oneLine.slice(0, TITLE_MAX - 1)}…`;
}
