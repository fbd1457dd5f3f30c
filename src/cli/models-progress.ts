import { maskLocation } from '../store/open.js';
import type { CliIo } from './io.js';
import { liveBar } from './live-bar.js';
import { oneLine } from './text/printable.js';
import type { DownloadEvent } from '../files/index.js';
import type { ModelBatchEvent, ModelBatchStatus, RowCounts } from '../models/index.js';

/** Renders model batch events (and file downloads): a live bar on a TTY, JSON lines with --json, a few plain lines otherwise. */
export interface ModelsRenderer {
  onEvent(e: ModelBatchEvent | DownloadEvent): void;
  /** A line for the person that must not be drawn over by the bar. */
  note(line: string): void;
  stop(): void;
}

function done(c: RowCounts): number {
  return c.completed + c.failed + c.error;
}

function jsonRenderer(out: NodeJS.WritableStream, err: NodeJS.WritableStream): ModelsRenderer {
  return {
    onEvent: (e) => out.write(`${JSON.stringify({ ...e, at: new Date().toISOString() })}\n`),
    note: (line) => err.write(`${line}\n`),
    stop: () => {},
  };
}

function startLine(e: Extract<ModelBatchEvent, { type: 'start' }>): string {
  const unknown = e.unknown ? `, ${e.unknown} with unknown outcome${e.resubmitUnknown ? ' (re-sent with their key)' : ''}` : '';
  return `batch ${e.batch} (model ${e.model}): ${e.total} rows, ${done(e.counts)} already finished, ${e.resumed} re-attached${unknown}\n`;
}

function barRenderer(stream: NodeJS.WritableStream, columns: number): ModelsRenderer {
  const bar = liveBar(stream, 'in flight {inFlight} | failed {failed} | credits {credits}', columns);
  const notes: string[] = [];
  const fields = (c: RowCounts, inFlight: number, credits: number) => ({ inFlight, failed: c.failed + c.error, credits });
  return {
    onEvent: (e) => {
      if (e.type === 'start') {
        stream.write(startLine(e));
        bar.start(e.total, done(e.counts), fields(e.counts, 0, 0));
      } else if (e.type === 'progress') bar.update(done(e.counts), fields(e.counts, e.inFlight, e.credits));
      else if (e.type === 'warning') notes.push(`warning: ${e.message}`);
      else if (e.type === 'file-problem') notes.push(`file ${e.fileId} of row ${e.itemId}: ${e.status}: ${e.reason}`);
      else if (e.type === 'end') bar.update(done(e.counts), fields(e.counts, 0, e.credits));
    },
    note: (line) => bar.note(line),
    stop: () => {
      bar.stop();
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
    note: (line) => stream.write(`${line}\n`),
    stop: () => {},
  };
}

/** Picks the renderer for this terminal and flags. */
export function pickModelsRenderer(json: boolean, io: CliIo): ModelsRenderer {
  if (json) return jsonRenderer(io.stdout, io.stderr);
  if (io.isTTY) return barRenderer(io.stderr, io.columns);
  return plainRenderer(io.stderr);
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
  // Ids come from the user's file, errors from the service: escaped, one line each.
  for (const f of s.failures.slice(0, 10)) lines.push(`  ${oneLine(`${f.id}: ${f.error ?? 'failed'}`, 200)}`);
  const f = s.files;
  const nFiles = f.pending + f.downloaded + f.failed + f.expired + f.missing;
  if (nFiles > 0)
    lines.push(`files: ${f.downloaded} downloaded, ${f.pending} pending, ${f.failed} failed, ${f.expired} expired, ${f.missing} missing`);
  lines.push(`database: ${maskLocation(where.db)}`);
  if (where.out && nFiles > 0) lines.push(`files folder: ${where.out}`);
  if (where.output) lines.push(`results: ${where.output}`);
  return lines.join('\n');
}
