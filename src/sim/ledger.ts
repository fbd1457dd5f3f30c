import { createHash } from 'node:crypto';
import { fileChunks } from './file-content.js';
import type { FileRecord } from './records.js';
import type { SimStore } from './store.js';
import type { LedgerFile, LedgerKey, LedgerRun, SimLedger } from './types.js';

interface KeyTally {
  account: string;
  scope: string;
  key: string;
  requests: number;
  bodies: Set<string>;
}

/**
 * The simulator's own record for tests to check a client against (GET /_sim/ledger):
 * every run, every idempotency key with the requests that carried it, and every file with
 * the hash of the bytes served for it. Runs and files are read from the store; the tallies
 * per key are kept here, in memory (a restored simulator starts them afresh).
 */
export class RequestLedger {
  /** `<account> <scope> <key>` → what requests carried that key. */
  readonly #keys = new Map<string, KeyTally>();
  /** Files are generated from their record: same record, same bytes, hashed once. */
  readonly #hashes = new WeakMap<FileRecord, { sha256: string; bytes: number }>();

  /**
   * Counts a request that carried an idempotency key and reached its route, with the sha256
   * of its body exactly as received. A request without a key is not counted.
   */
  keyed(account: string, scope: string, key: string | undefined, body: string): void {
    if (key === undefined) return;
    const id = `${account} ${scope} ${key}`;
    let t = this.#keys.get(id);
    if (!t) this.#keys.set(id, (t = { account, scope, key, requests: 0, bodies: new Set() }));
    t.requests++;
    t.bodies.add(sha256(body));
  }

  /** The ledger of `store` as it is now (plain data). */
  read(store: SimStore): SimLedger {
    const keyOfRun = new Map<string, string>();
    for (const [id, runId] of store.idempotency) keyOfRun.set(runId, id);
    const fileRun = new Map<string, string>();
    const runs: LedgerRun[] = [];
    for (const r of store.runs.values()) {
      for (const f of r.fileIds ?? []) fileRun.set(f, r.id);
      runs.push({
        id: r.id,
        account: r.account,
        threadId: r.threadId,
        input: r.chain.input,
        parentId: r.parentId,
        idempotencyKey: keyOf(keyOfRun.get(r.id), r.account),
        status: r.status,
        fileIds: [...(r.fileIds ?? [])],
      });
    }
    const keys: LedgerKey[] = [...this.#keys.entries()].map(([id, t]) => ({
      account: t.account,
      scope: t.scope,
      key: t.key,
      requests: t.requests,
      bodies: [...t.bodies],
      madeId: store.idempotency.get(id) ?? null,
    }));
    const files: LedgerFile[] = [...store.files.values()].map((f) => ({ id: f.id, runId: fileRun.get(f.id) ?? null, ...this.#hash(f) }));
    return { runs, keys, files };
  }

  #hash(f: FileRecord): { sha256: string; bytes: number } {
    let h = this.#hashes.get(f);
    if (!h) {
      const hash = createHash('sha256');
      let bytes = 0;
      for (const c of fileChunks(f)) {
        hash.update(c);
        bytes += c.length;
      }
      this.#hashes.set(f, (h = { sha256: hash.digest('hex'), bytes }));
    }
    return h;
  }
}

function sha256(s: string): string {
  return createHash('sha256').update(s, 'utf8').digest('hex');
}

/** The key out of an idempotency entry `<account> <METHOD> <path> <key>` (a path holds no space). */
function keyOf(entry: string | undefined, account: string): string | null {
  if (entry === undefined || !entry.startsWith(`${account} `)) return null;
  const rest = entry.slice(account.length + 1);
  const afterMethod = rest.indexOf(' ');
  const afterPath = afterMethod < 0 ? -1 : rest.indexOf(' ', afterMethod + 1);
  return afterPath < 0 ? null : rest.slice(afterPath + 1);
}
