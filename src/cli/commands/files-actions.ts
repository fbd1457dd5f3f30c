import { systemClock } from '../../clock.js';
// What `resq files …` runs, loaded only when a files command runs (files.ts registers them).
import { ConfigError } from '../../errors.js';
import { filesStatus, formatDuration, pullFiles, verifyFiles, type DownloadEvent, type FilesStatus, type PullReport, type VerifyReport } from '../../files/index.js';
import type { BatchRecord } from '../../store/index.js';
import { DEFAULT_DOWNLOAD_CONCURRENCY } from '../../store/settings-defaults.js';
import { commandHint } from '../../text/command-hint.js';
import { openBatches } from '../open-batch.js';
import { EXIT } from '../exit-codes.js';
import { STOP_SIGNALS, type CliIo, type StopSignal } from '../io.js';
import { choiceFor, openService } from '../service.js';
import { chooseService } from '../../service-choice.js';
import { formatBytes } from '../../format-bytes.js';
import { printable } from '../../text/printable.js';
import { wholeNumber } from '../whole-number.js';

/** Options every files command has. */
export interface Common {
  batch?: string;
  db: string;
  json: boolean;
}

/** Flags of `resq files pull`. */
export interface PullArgs extends Common {
  sim?: boolean;
  baseUrl?: string;
  out?: string;
  concurrency?: number;
}

type Out = (line: string) => void;

function writer(io: CliIo): Out {
  return (line) => io.stdout.write(`${line}\n`);
}

/**
 * The `resq files pull` that fetches these batches' files, to paste as it is: the batch when
 * there is one, `--db` when not the default, `--sim` when a batch ran on the built-in simulator.
 */
export function pullHint(batches: readonly BatchRecord[], db: string, one: boolean): string {
  const sim = batches.some((b) => b.settings.service === 'sim');
  const name = one && batches.length === 1 ? [batches[0]!.name] : [];
  return commandHint(['resq', 'files', 'pull', ...name], { db, sim });
}

function renderStatus(out: Out, s: FilesStatus, now: Date, pull: string): void {
  const c = s.counts;
  const scope = s.batches.length === 1 ? `batch ${s.batches[0]}` : `${s.batches.length} batches`;
  out(`files of ${scope}: ${s.total} — ${c.downloaded} downloaded, ${c.pending} pending, ${c.failed} failed, ${c.expired} expired, ${c.missing} missing`);
  out(`on disk: ${formatBytes(s.bytesOnDisk)}`);
  // Which machine holds which files, and where: shown once more than this machine is involved.
  if (s.holders.length > 1 || (s.holders.length === 1 && s.holders[0]!.host !== s.thisHost)) {
    out('held by:');
    for (const h of s.holders) {
      const folders = h.folders.slice(0, 3).map(printable).join(', ') + (h.folders.length > 3 ? `, … (${h.folders.length} folders)` : '');
      out(`  ${printable(h.host)}${h.host === s.thisHost ? ' (this machine)' : ''}: ${h.files} ${h.files === 1 ? 'file' : 'files'}, ${formatBytes(h.bytes)} in ${folders}`);
    }
  }
  if (s.notHere > 0)
    out(`this machine (${printable(s.thisHost)}) lacks ${s.notHere} downloaded ${s.notHere === 1 ? 'file' : 'files'} other machines hold: ${pull} --out DIR fetches them into DIR`);
  if (s.soonestExpiry) {
    const left = Date.parse(s.soonestExpiry) - now.getTime();
    out(`soonest expiry among files not on disk: ${s.soonestExpiry} (${left > 0 ? `in ${formatDuration(left)}` : `${formatDuration(left)} ago`})`);
  }
  for (const w of s.warnings) out(`warning: ${w.message}`);
}

function renderPull(out: Out, r: PullReport, pull: string): void {
  const scope = r.batches.length === 1 ? `batch ${r.batches[0]}` : `${r.batches.length} batches`;
  const repaired = r.repaired.length ? `, ${r.repaired.length} fetched again (gone or changed on disk)` : '';
  const others = Object.entries(r.fromOtherHosts);
  const fetched = others.length ? `, ${others.reduce((n, [, k]) => n + k, 0)} of them held only by other machines (${others.map(([h, n]) => `${printable(h)}: ${n}`).join(', ')})` : '';
  out(`files of ${scope}: ${r.downloaded} downloaded (${formatBytes(r.bytes)})${fetched}, ${r.skipped} already on this machine${repaired}`);
  if (r.interrupted) out(`interrupted: run ${pull} again to continue`);
  if (r.notOnDisk.length === 0) return;
  const by = (s: string): number => r.notOnDisk.filter((f) => f.status === s).length;
  out(`not on disk: ${r.notOnDisk.length} (${by('expired')} expired, ${by('missing')} missing, ${by('failed')} failed, ${by('pending')} pending)`);
  for (const f of r.notOnDisk.slice(0, 30))
    out(`  ${f.status.padEnd(8)} ${f.batch} / ${f.itemId} / ${f.name ?? f.fileId}: ${f.reason ?? 'not fetched yet'}`);
  if (r.notOnDisk.length > 30) out(`  … and ${r.notOnDisk.length - 30} more (${pull} --json)`);
}

function renderVerify(out: Out, r: VerifyReport, pull: string): void {
  const gone = r.problems.filter((p) => p.state === 'gone').length;
  out(`verified ${r.checked} downloaded files: ${r.ok} intact (${formatBytes(r.bytes)}), ${r.problems.length - gone} changed, ${gone} gone`);
  for (const p of r.problems) out(`  ${p.state.padEnd(8)} ${p.batch} / ${p.itemId} / ${p.path ?? p.fileId}: ${p.reason}`);
  if (r.problems.length) out(`${pull} fetches them again`);
}

/** Service for a pull, by the library's one rule ({@link chooseService}) over the batches pulled. */
async function serviceFor(a: PullArgs, batches: BatchRecord[], io: CliIo) {
  const sims = batches.filter((b) => b.settings.service === 'sim').length;
  if (a.sim === undefined && !a.baseUrl && sims > 0 && sims < batches.length)
    throw new ConfigError(
      'some of these batches ran on the built-in simulator and some on a service: pull them one at a time, ' +
        'or pass --sim (the simulator state kept beside the database) or --base-url',
    );
  const choice = chooseService({ sim: a.sim, baseUrl: a.baseUrl, envBaseUrl: io.env.RESQ_BASE_URL, batches });
  // A simulator batch's files are in the simulator state kept beside the database: without it they are unknown.
  return openService(choiceFor(choice), { env: io.env, dbPath: a.db, ...(choice.sim && a.sim === undefined ? { simStateMustExist: true } : {}) });
}

/** `resq files pull [BATCH]`. */
export async function filesPullHandler(a: PullArgs, io: CliIo): Promise<number> {
  const out = writer(io);
  wholeNumber('concurrency', a.concurrency, 1, 256);
  const { store, batches } = await openBatches(a.db, a.batch);
  try {
    const service = await serviceFor(a, batches, io);
    const abort = new AbortController();
    let stoppedBy: StopSignal = 'SIGINT';
    const offStop = io.onStop((signal) => {
      stoppedBy = signal;
      abort.abort(new Error('interrupted'));
    });
    try {
      const report = await pullFiles({
        store,
        client: service.client,
        batches,
        outDir: a.out ?? null,
        concurrency: a.concurrency ?? batches[0]?.settings.download?.concurrency ?? DEFAULT_DOWNLOAD_CONCURRENCY,
        signal: abort.signal,
        onEvent: a.json ? (e: DownloadEvent) => e.type !== 'file-start' && out(JSON.stringify(e)) : undefined,
      });
      if (a.json) out(JSON.stringify({ type: 'files-pull', ...report }));
      else renderPull(out, report, pullHint(batches, a.db, !!a.batch));
      return report.interrupted ? STOP_SIGNALS[stoppedBy] : report.notOnDisk.length > 0 ? EXIT.failed : EXIT.ok;
    } finally {
      offStop();
      await service.close();
    }
  } finally {
    await store.close();
  }
}


/** `resq files status [BATCH]`. */
export async function filesStatusHandler(a: Common, io: CliIo): Promise<number> {
  const out = writer(io);
  const { store, batches } = await openBatches(a.db, a.batch);
  try {
    const now = new Date(systemClock.now());
    const s = await filesStatus(store, batches.length === 1 && a.batch ? batches[0] : null, now, undefined, undefined, { db: a.db });
    if (a.json) out(JSON.stringify({ type: 'files-status', ...s }));
    else renderStatus(out, s, now, pullHint(batches, a.db, !!a.batch));
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

/** `resq files verify [BATCH]`. */
export async function filesVerifyHandler(a: Common, io: CliIo): Promise<number> {
  const out = writer(io);
  const { store, batches } = await openBatches(a.db, a.batch);
  try {
    const r = await verifyFiles(store, a.batch ? batches[0] : null);
    if (a.json) out(JSON.stringify({ type: 'files-verify', ...r }));
    else renderVerify(out, r, pullHint(batches, a.db, !!a.batch));
    return r.problems.length > 0 ? EXIT.failed : EXIT.ok;
  } finally {
    await store.close();
  }
}
