import { hostname } from 'node:os';
import { resolve } from 'node:path';
import PQueue from 'p-queue';
import { ApiError, backoffDelay, retryAfterMs, type ServiceClient } from '../api/index.js';
import { type Clock, systemClock } from '../clock.js';
import { type BatchRecord, DEFAULT_DOWNLOAD_CONCURRENCY, type FileClaim, type FileRecord, type FileStore } from '../store/index.js';
import { emptySummary, type DownloadEvent, type DownloadSummary, type FileRef } from './events.js';
import { classifyFailure, goneStatus } from './failure.js';
import { FileClaims, type HeldFile, recordDownload } from './file-claim.js';
import { PathBook } from './path-book.js';
import { OutFolders } from './out-folders.js';
import { fileNameFor, isInside, UnsafePathError } from './safe-name.js';
import { writeAtomically, type Written } from './write-file.js';

/**
 * How a download is retried: one budget per file for its request and its body together (the
 * client's own retries are turned off for it, so a file costs at most `attempts` requests).
 */
export interface DownloadRetryOptions {
  /** Attempts per file, the first included. @default 5 */
  attempts?: number;
  /** Backoff base; attempt n waits a random time below min(maxDelayMs, baseDelayMs·2^(n-1)). @default 500 */
  baseDelayMs?: number;
  /** Upper bound of one delay. @default 30_000 */
  maxDelayMs?: number;
}

/** Options of {@link Downloader}. */
export interface DownloaderOptions {
  store: FileStore;
  /** Only `openFile` is used: it sends the key to the base URL's origin only. */
  client: Pick<ServiceClient, 'openFile'>;
  /**
   * Root folder of downloads, or one per batch. Files go to `<out>/<batch>-<id>/<item id>/<name>`
   * (`<out>/<batch>/…` for a batch whose files already lie there).
   */
  outDir: string | ((batch: BatchRecord) => string);
  /** Files downloaded at once. @default DEFAULT_DOWNLOAD_CONCURRENCY */
  concurrency?: number;
  /** Progress and problems, as events. */
  onEvent?: (e: DownloadEvent) => void;
  /** Time: waits between attempts, scans, and `expired` vs `missing` after a 404. @default systemClock */
  clock?: Clock;
  retry?: DownloadRetryOptions;
  /** Uniform [0, 1) source for backoff jitter. @default Math.random */
  random?: () => number;
  /** The host name recorded with each file on disk. @default os.hostname() */
  host?: string;
  /** How long a claim on a file lasts unless renewed (another host's dead holder's runs out, then another takes it). @default FILE_LEASE_MS */
  fileLeaseMs?: number;
}

type Opened = Awaited<ReturnType<ServiceClient['openFile']>>;

/** Shortest time between two scans of one batch's files by {@link Downloader.kick}. */
export const KICK_INTERVAL_MS = 200;

interface Scan {
  batch: BatchRecord;
  also: Set<'missing' | 'expired'>;
  last: number;
  /** The wait (on the downloader's clock) for a scan scheduled for later; aborting it drops that scan. */
  later: AbortController | null;
}

/**
 * Downloads the files a batch's runs made: streamed to a temporary name beside the target,
 * hashed while written, fsynced, renamed, then recorded in one store write. Safe names,
 * never outside the output folder, retried with backoff on network errors and 5xx.
 */
export class Downloader {
  readonly #o: DownloaderOptions;
  readonly #queue: PQueue;
  readonly #abort = new AbortController();
  readonly #handled = new Set<string>();
  readonly #scans = new Map<string, Scan>();
  readonly #scanning = new Set<Promise<void>>();
  readonly #books = new Map<string, PathBook>();
  get #host(): string {
    return this.#o.host ?? hostname();
  }
  readonly #folders: OutFolders;
  readonly #summary = emptySummary();
  readonly #retry: Required<DownloadRetryOptions>;
  readonly #clock: Clock;
  /** The claims this downloader makes on files before it fetches them. */
  readonly #claims: FileClaims;

  constructor(o: DownloaderOptions) {
    this.#o = o;
    this.#folders = new OutFolders(o.store);
    this.#clock = o.clock ?? systemClock;
    this.#claims = new FileClaims({ store: o.store, host: this.#host, ...(o.fileLeaseMs !== undefined ? { leaseMs: o.fileLeaseMs } : {}), ...(o.clock ? { clock: o.clock } : {}) });
    this.#queue = new PQueue({ concurrency: Math.max(1, o.concurrency ?? DEFAULT_DOWNLOAD_CONCURRENCY) });
    this.#retry = { attempts: 5, baseDelayMs: 500, maxDelayMs: 30_000, ...definedOnly(o.retry ?? {}) };
  }

  /**
   * Queues every pending or failed file of the batch not already queued by this downloader
   * (a file that failed here is not retried until a new downloader, e.g. `files pull`).
   * Cheap to call often: the store is scanned at most every {@link KICK_INTERVAL_MS} per
   * batch; a later call is folded into a scan scheduled for then. `also` adds statuses to
   * pick up (`files pull` adds `missing`).
   */
  kick(batch: BatchRecord, also: readonly ('missing' | 'expired')[] = []): void {
    if (this.#abort.signal.aborted) return;
    let scan = this.#scans.get(batch.id);
    if (!scan) {
      scan = { batch, also: new Set(), last: 0, later: null };
      this.#scans.set(batch.id, scan);
    }
    scan.batch = batch;
    for (const s of also) scan.also.add(s);
    const wait = scan.last + KICK_INTERVAL_MS - this.#clock.now();
    if (wait <= 0) this.#startScan(scan);
    else if (!scan.later) {
      const pending = scan;
      const later = new AbortController();
      scan.later = later;
      void this.#clock.sleep(wait, later.signal).then(() => {
        if (!later.signal.aborted) this.#startScan(pending);
      });
    }
  }

  /**
   * Queues this host's own copy of files another host downloaded (`files pull` on a machine
   * that lacks them): each is written under this downloader's folder and recorded as this
   * host's copy; the other host's record stays as it is, and a failure marks nothing.
   */
  copy(batch: BatchRecord, fileIds: readonly string[]): void {
    for (const fileId of fileIds) {
      const key = `${batch.id}\u0000${fileId}\u0000copy`;
      if (this.#abort.signal.aborted || this.#handled.has(key)) continue;
      this.#handled.add(key);
      this.#queue.add(() => this.#download(batch, fileId, true)).catch((err: unknown) => this.#internal(batch, { id: fileId, itemId: '' } as FileRecord, err));
    }
  }

  /** Resolves when everything queued so far (scheduled scans included) has finished; the summary covers this downloader's life. */
  async drain(): Promise<DownloadSummary> {
    for (const scan of this.#scans.values()) if (scan.later) this.#startScan(scan);
    while (this.#scanning.size > 0) await Promise.all(this.#scanning);
    await this.#queue.onIdle();
    return { ...this.#summary, problems: [...this.#summary.problems] };
  }

  /** Aborts downloads in flight (their rows stay as they were; their temp files are removed) and queues nothing more. */
  stop(): void {
    for (const scan of this.#scans.values()) scan.later?.abort();
    this.#queue.clear();
    this.#abort.abort(new Error('downloads stopped'));
  }

  /** Whether {@link stop} was called. */
  get stopped(): boolean {
    return this.#abort.signal.aborted;
  }

  /** Starts a scan; drain() waits for scans in progress. */
  #startScan(scan: Scan): void {
    const p = this.#scan(scan).catch((err: unknown) => this.#scanFailed(scan.batch, err));
    this.#scanning.add(p);
    void p.finally(() => this.#scanning.delete(p));
  }

  async #scan(scan: Scan): Promise<void> {
    scan.later?.abort();
    scan.later = null;
    scan.last = this.#clock.now();
    if (this.#abort.signal.aborted) return;
    const { batch } = scan;
    for (const f of await this.#o.store.filesForBatch(batch.id, ['pending', 'failed', ...scan.also])) {
      const key = `${batch.id}\u0000${f.id}`;
      if (this.#handled.has(key)) continue;
      this.#handled.add(key);
      this.#queue.add(() => this.#download(batch, f.id)).catch((err: unknown) => this.#internal(batch, f, err));
    }
  }

  /** A scan that could not read the store: reported like a file's internal failure. */
  #scanFailed(batch: BatchRecord, err: unknown): void {
    const reason = `internal: ${err instanceof Error ? err.message : String(err)}`;
    this.#summary.problems.push({ batchId: batch.id, batch: batch.name, itemId: '', fileId: '', status: 'failed', reason });
  }

  /** A failure outside the download itself (the store closed or busy): counted and reported, never unhandled. */
  #internal(batch: BatchRecord, f: FileRecord, err: unknown): void {
    const reason = `internal: ${err instanceof Error ? err.message : String(err)}`;
    const ref: FileRef = { batchId: batch.id, batch: batch.name, itemId: f.itemId, fileId: f.id };
    this.#summary.failed++;
    this.#summary.problems.push({ ...ref, status: 'failed', reason });
    this.#emit({ ...ref, type: 'file-problem', status: 'failed', reason });
  }

  #emit(e: DownloadEvent): void {
    try {
      this.#o.onEvent?.(e);
    } catch {
      // A broken listener must not break downloads.
    }
  }

  #outDir(batch: BatchRecord): string {
    return resolve(typeof this.#o.outDir === 'function' ? this.#o.outDir(batch) : this.#o.outDir);
  }

  async #book(batchId: string): Promise<PathBook> {
    let book = this.#books.get(batchId);
    if (!book) {
      const copies = (await this.#o.store.fileCopies(batchId)).filter((c) => c.host === this.#host);
      const paths = [...(await this.#o.store.filePaths(batchId)), ...copies.map((c) => ({ id: c.fileId, path: c.path }))];
      // Another download of the batch may have built it meanwhile: keep the first.
      book = this.#books.get(batchId) ?? new PathBook(paths);
      this.#books.set(batchId, book);
    }
    return book;
  }

  /**
   * Downloads a file and records it; `copy`: this host's copy of a file another host downloaded.
   * A file of the batch's own is claimed in the store first, so one worker of any machine
   * fetches it; one a live holder claimed is left to it (and looked at again on a later scan),
   * one whose holder's process on this host is gone is taken over at once (file-claim.ts).
   */
  async #download(batch: BatchRecord, fileId: string, copy = false): Promise<void> {
    if (copy) return this.#fetch(batch, fileId, null);
    const held = await this.#claims.take(batch.id, fileId);
    if (!held) {
      this.#handled.delete(`${batch.id}\u0000${fileId}`);
      return;
    }
    try {
      await this.#fetch(batch, fileId, held);
    } finally {
      await held.end();
    }
  }

  /** Fetches a file; `held`: the file's own download, recorded fenced by its claim and stopped when it is lost; null: this host's copy. */
  async #fetch(batch: BatchRecord, fileId: string, held: HeldFile | null): Promise<void> {
    const claim = held?.claim ?? null;
    const copy = claim === null;
    const signal = held ? AbortSignal.any([this.#abort.signal, held.lost]) : this.#abort.signal;
    const file = await this.#o.store.getFile(batch.id, fileId);
    if (signal.aborted || !file || (file.status === 'downloaded') !== copy) return;
    // A copy's place: where this host's earlier copy was (repaired), else a new one.
    const current = copy ? ((await this.#o.store.fileCopies(batch.id)).find((c) => c.fileId === fileId && c.host === this.#host)?.path ?? null) : file.path;
    const ref: FileRef = { batchId: batch.id, batch: batch.name, itemId: file.itemId, fileId };
    this.#emit({ ...ref, type: 'file-start', url: file.url });
    const max = Math.max(1, this.#retry.attempts);
    for (let attempt = 1; ; attempt++) {
      let claimed: string | null = null;
      try {
        const done = await this.#attempt(batch, file, current, signal, (p) => (claimed = p));
        if (copy) await this.#o.store.recordFileCopy(batch.id, fileId, { host: this.#host, path: done.path, bytes: done.bytes, sha256: done.sha256 });
        // Taken over meanwhile and this host holds the taker's copy: nothing of this one is kept.
        else if (!(await recordDownload(this.#o.store, batch.id, fileId, { ...done, host: this.#host }, claim))) return;
        this.#summary.downloaded++;
        this.#summary.bytes += done.bytes;
        this.#emit({ ...ref, type: 'file-done', path: done.path, bytes: done.bytes, sha256: done.sha256 });
        return;
      } catch (err) {
        if (claimed) (await this.#book(batch.id)).release(claimed, fileId);
        const v = classifyFailure(err, signal.aborted);
        if (v.kind === 'abort') return;
        // Another host holds the file: the service's 404 changes nothing of its record.
        if (v.kind === 'gone') return await this.#problem(ref, file, copy ? { status: 'failed', reason: `${v.reason}; it is on ${file.host}` } : goneStatus(file, new Date(this.#clock.now())), claim);
        if (v.kind === 'retry' && attempt < max) {
          const delayMs = this.#delay(attempt, err);
          this.#emit({ ...ref, type: 'file-retry', attempt, maxAttempts: max, delayMs, reason: v.reason });
          await this.#clock.sleep(delayMs, signal);
          if (signal.aborted) return;
          continue;
        }
        const reason = v.kind === 'retry' ? `${v.reason} (gave up after ${attempt} attempts)` : v.reason;
        return await this.#problem(ref, file, { status: 'failed', reason }, claim);
      }
    }
  }

  /** The wait before the next attempt: the service's `Retry-After` (capped), else backoff with jitter. */
  #delay(attempt: number, err: unknown): number {
    const hinted = err instanceof ApiError ? retryAfterMs(err.retryAfter, this.#clock.now(), this.#retry.maxDelayMs) : null;
    return hinted ?? backoffDelay(attempt, this.#retry, this.#o.random ?? Math.random);
  }

  /** A file that ended failed, expired or missing; `claim`: recorded on the file, fenced by it (null: a copy, recorded nowhere). */
  async #problem(ref: FileRef, file: FileRecord, p: { status: 'failed' | 'expired' | 'missing'; reason: string }, claim: FileClaim | null): Promise<void> {
    // Taken over meanwhile: the taker's outcome stands, this one is not reported.
    if (claim && !(await this.#o.store.markFileStatus(ref.batchId, file.id, p.status, p.reason, claim))) return;
    this.#summary[p.status]++;
    this.#summary.problems.push({ ...ref, ...p });
    this.#emit({ ...ref, type: 'file-problem', ...p });
  }

  async #attempt(
    batch: BatchRecord,
    file: FileRecord,
    current: string | null,
    signal: AbortSignal,
    onClaim: (path: string) => void,
  ): Promise<Written & { mediaType: string | null }> {
    // One attempt a call: this loop's budget is the only one (request and body alike).
    const opened: Opened = await this.#o.client.openFile(file.url, { signal, attempts: 1 });
    // The body may fail while the folder is prepared, before anything reads it: keep that
    // error from going unhandled; writeAtomically still sees it (the stream is `errored`).
    opened.body.on('error', () => {});
    try {
      const out = this.#outDir(batch);
      const folder = await this.#folders.itemFolder(batch, out, file.itemId);
      const name = fileNameFor(file.name, file.id, opened.mediaType);
      const book = await this.#book(batch.id);
      const path = book.claim(folder, name, file.id, current);
      onClaim(path);
      const inside = (p: string): string => {
        // The last line of defence: whatever the name logic did, nothing lands outside `out`.
        if (!isInside(out, p)) throw new UnsafePathError(`refusing to write ${JSON.stringify(p)}: outside ${JSON.stringify(out)}`);
        return p;
      };
      inside(path);
      // Only this file's own copy on this host is replaced (a repair); any other file there is left alone.
      const own = path === current && (current !== file.path || file.host === null || file.host === this.#host);
      const nextPath = own
        ? undefined
        : (taken: string): string => {
            const next = inside(book.claimNext(taken, name, file.id));
            onClaim(next);
            return next;
          };
      const written = await writeAtomically(opened.body, path, { signal, expectedBytes: opened.size, ...(nextPath ? { nextPath } : {}) });
      return { ...written, mediaType: opened.mediaType };
    } finally {
      if (!opened.body.destroyed) opened.body.destroy();
    }
  }
}

function definedOnly<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}
