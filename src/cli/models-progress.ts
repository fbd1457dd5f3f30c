import cliProgress from 'cli-progress';
import type { DownloadEvent } from '../files/index.js';
import type { ModelBatchEvent, ModelBatchStatus, RowCounts } from '../models/index.js';

/** Renders model batch events (and file downloads): a live bar on a TTY, JSON lines with --json, a few plain lines otherwise. */
export interface ModelsRenderer {
  onEvent(e: ModelBatchEvent | DownloadEvent): void;
  stop(): void;
}

function done(c: RowCounts): number {
  return c.completed + c.failed + c.error;
}

function jsonRenderer(out: NodeJS.WritableStream): ModelsRenderer {
  return { onEvent: (e) => out.write(`${JSON.stringify({ ...e, at: new Date().toISOString() })}\n`), stop: () => {} };
}

function startLine(e: Extract<ModelBatchEvent, { type: 'start' }>): string {
  const unknown = e.unknown ? `, ${e.unknown} with unknown outcome${e.resubmitUnknown ? ' (re-sent with their key)' : ''}` : '';
  return `batch ${e.batch} (model ${e.model}): ${e.total} rows, ${done(e.counts)} already finished, ${e.resumed} re-attached${unknown}\n`;
}

function barRenderer(stream: NodeJS.WriteStream): ModelsRenderer {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: '{bar} {value}/{total} | in flight {inFlight} | failed {failed} | credits {credits} | {rate}/s | ETA {eta_formatted}',
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 50,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let t0 = Date.now();
  let done0 = 0;
  const notes: string[] = [];
  const payload = (c: RowCounts, inFlight: number, credits: number) => {
    const secs = (Date.now() - t0) / 1000;
    return { inFlight, failed: c.failed + c.error, credits, rate: secs > 0 ? ((done(c) - done0) / secs).toFixed(1) : '0.0' };
  };
  return {
    onEvent: (e) => {
      if (e.type === 'start') {
        stream.write(startLine(e));
        t0 = Date.now();
        done0 = done(e.counts);
        bar.start(e.total, done0, payload(e.counts, 0, 0));
        started = true;
      } else if (e.type === 'progress' && started) bar.update(done(e.counts), payload(e.counts, e.inFlight, e.credits));
      else if (e.type === 'warning') notes.push(`warning: ${e.message}`);
      else if (e.type === 'file-problem') notes.push(`file ${e.fileId} of row ${e.itemId}: ${e.status}: ${e.reason}`);
      else if (e.type === 'end' && started) bar.update(done(e.counts), payload(e.counts, 0, e.credits));
    },
    stop: () => {
      if (started) bar.stop();
      for (const n of notes) stream.write(`${n}\n`);
    },
  };
}

function plainRenderer(stream: NodeJS.WritableStream): ModelsRenderer {
  return {
    onEvent: (e) => {
      if (e.type === 'start') stream.write(startLine(e));
      else if (e.type === 'warning') stream.write(`warning: ${e.message}\n`);
      else if (e.type === 'file-problem') stream.write(`file ${e.fileId} of row ${e.itemId}: ${e.status}: ${e.reason}\n`);
    },
    stop: () => {},
  };
}

/** Picks the renderer for this terminal and flags. */
export function pickModelsRenderer(json: boolean): ModelsRenderer {
  if (json) return jsonRenderer(process.stdout);
  if (process.stderr.isTTY) return barRenderer(process.stderr);
  return plainRenderer(process.stderr);
}

/** The human summary of a models batch: rows by outcome, credits, unknown submissions, failures, files. */
export function formatModelStatus(s: ModelBatchStatus, where: { db: string; out?: string | null; output?: string | null }): string {
  const c = s.counts;
  const parts = [
    `${c.completed} succeeded`,
    c.failed ? `${c.failed} failed` : '',
    c.error ? `${c.error} refused` : '',
    c.running ? `${c.running} running` : '',
    c.submitting ? `${c.submitting} unknown` : '',
    c.queued ? `${c.queued} not sent` : '',
  ].filter(Boolean);
  const lines = [`batch ${s.batch} (model ${s.model}${s.mode ? `, mode ${s.mode}` : ''}): ${s.total} rows — ${parts.join(', ')}`];
  const unreported = s.credits.unreported ? ` (${s.credits.unreported} finished runs did not report credits)` : '';
  lines.push(`credits spent: ${s.credits.spent}${unreported}`);
  if (s.polls > 0) lines.push(`reads of running jobs: ${s.polls}`);
  if (s.unknownSubmission.length > 0)
    lines.push(
      `submission outcome unknown (a run may exist; re-send with the stored key: --resubmit-unknown): ${s.unknownSubmission.slice(0, 10).join(', ')}${s.unknownSubmission.length > 10 ? ' …' : ''}`,
    );
  if (s.failures.length > 0) lines.push('failed or refused rows:');
  for (const f of s.failures.slice(0, 10)) lines.push(`  ${f.id}: ${f.error ?? 'failed'}`);
  const f = s.files;
  const nFiles = f.pending + f.downloaded + f.failed + f.expired + f.missing;
  if (nFiles > 0)
    lines.push(`files: ${f.downloaded} downloaded, ${f.pending} pending, ${f.failed} failed, ${f.expired} expired, ${f.missing} missing`);
  lines.push(`database: ${where.db}`);
  if (where.out && nFiles > 0) lines.push(`files folder: ${where.out}`);
  if (where.output) lines.push(`results: ${where.output}`);
  return lines.join('\n');
}
