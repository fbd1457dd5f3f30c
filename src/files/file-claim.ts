import { randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import type { Clock } from '../clock.js';
import { isGoneHere, processStart } from '../local-process.js';
import type { DownloadedFile, FileClaim, FileHolder, FileStore } from '../store/index.js';

/** How long a claim on a file lasts unless renewed (another host's dead holder's runs out after it). */
export const FILE_LEASE_MS = 60_000;

/** A file this downloader holds while it fetches it. */
export interface HeldFile {
  claim: FileClaim;
  /** Aborted when a renewal finds the claim taken over (this holder stalled past its lease): the download stops. */
  lost: AbortSignal;
  /** Stops renewing and lets the claim go if still held (a recorded download let it go already). */
  end(): Promise<void>;
}

/**
 * The claims one downloader makes on files before it fetches them, so that one worker of any
 * machine fetches each. The holder is this process, named as a worker is (host, pid, start
 * identity): a claimer on the same host takes a claim over at once when its holder's process
 * is gone (killed -9), as a dead worker's items are (src/local-process.ts); another host's
 * dead holder's claim runs out with its lease.
 */
export class FileClaims {
  readonly holder: FileHolder;
  readonly #store: FileStore;
  readonly #leaseMs: number;
  readonly #clock: Clock | undefined;

  /** `clock`: a test's, whose time then stands for the store's; else the store's own time. */
  constructor(o: { store: FileStore; host: string; leaseMs?: number; clock?: Clock }) {
    this.#store = o.store;
    this.#leaseMs = o.leaseMs ?? FILE_LEASE_MS;
    this.#clock = o.clock;
    this.holder = { owner: `${o.host}:${process.pid}:${randomUUID().slice(0, 8)}`, host: o.host, pid: process.pid, pidStart: processStart(process.pid) };
  }

  #now(): number | undefined {
    return this.#clock?.now();
  }

  /**
   * Claims the file: free, run out, or held by a process of this host that is gone (taken
   * over with the next token, only while that claim is still the file's). Null when another
   * live holder has it or it is downloaded.
   */
  async take(batchId: string, fileId: string): Promise<HeldFile | null> {
    const req = { leaseMs: this.#leaseMs, nowMs: this.#now() };
    let claim = await this.#store.claimFile(batchId, fileId, this.holder, req);
    if (!claim) {
      const held = await this.#store.fileClaimHolder(batchId, fileId);
      if (!held || held.owner === this.holder.owner || !isGoneHere(held, this.holder.host)) return null;
      claim = await this.#store.claimFile(batchId, fileId, this.holder, { ...req, from: held });
      if (!claim) return null;
    }
    const got = claim;
    const lost = new AbortController();
    const renewed = (ok: boolean): void => {
      if (!ok) lost.abort(new Error(`the claim on file ${fileId} was taken over`));
    };
    // Renewed on real time (a lease is the store's time), never on the downloader's clock; a
    // renewal that fails to reach the store says nothing of the claim (the next one tries again).
    const renew = setInterval(() => void this.#store.renewFileClaim(batchId, fileId, got, this.#leaseMs, this.#now()).then(renewed, () => {}), Math.max(1, Math.floor(this.#leaseMs / 3)));
    renew.unref();
    return {
      claim: got,
      lost: lost.signal,
      end: async () => {
        clearInterval(renew);
        await this.#store.releaseFileClaim(batchId, fileId, got).catch(() => false);
      },
    };
  }
}

/**
 * Records a file's own download, fenced by its claim. One whose claim was taken over meanwhile
 * (this worker stalled past its lease) records nothing over the taker's: its bytes are recorded
 * as this host's copy unless this host holds one already (the taker's); then they are a
 * duplicate and removed, unless they are that very copy. True when recorded either way.
 */
export async function recordDownload(store: FileStore, batchId: string, fileId: string, done: DownloadedFile & { host: string }, claim: FileClaim): Promise<boolean> {
  if (await store.markFileDownloaded(batchId, fileId, done, claim)) return true;
  const copy = { host: done.host, path: done.path, bytes: done.bytes, sha256: done.sha256 };
  if (await store.recordFileCopy(batchId, fileId, copy, 'keep')) return true;
  const file = await store.getFile(batchId, fileId);
  const here = (await store.fileCopies(batchId)).filter((c) => c.fileId === fileId && c.host === copy.host).map((c) => c.path);
  if (file?.host === copy.host && file.path) here.push(file.path);
  if (!here.includes(copy.path)) await unlink(copy.path).catch(() => {});
  return false;
}
