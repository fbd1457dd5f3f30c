import { maskLocation } from '../store/open.js';
import type { CliIo } from './io.js';
import { done, pickRenderer, type ProgressKind, type ProgressRenderer } from './progress.js';
import { oneLine } from '../text/printable.js';
import type { DownloadEvent } from '../files/index.js';
import type { ModelBatchEvent, ModelBatchStatus, RowCounts } from '../models/index.js';

/** Model-run batches: in flight, failed, credits; file problems kept with the warnings. */
export function modelProgress(): ProgressKind<ModelBatchEvent | DownloadEvent> {
  const fields = (c: RowCounts, inFlight: number, credits: number) => ({ inFlight, failed: c.failed + c.error, credits });
  return {
    barFormat: 'in flight {inFlight} | failed {failed} | credits {credits}',
    read(e) {
      switch (e.type) {
        case 'start': {
          const unknown = e.unknown ? `, ${e.unknown} with unknown outcome${e.resubmitUnknown ? ' (re-sent with their key)' : ''}` : '';
          const line = `batch ${e.batch} (model ${e.model}): ${e.total} rows, ${done(e.counts)} already finished, ${e.resumed} re-attached${unknown}`;
          return { kind: 'start', line, aboveBar: true, total: e.total, done: done(e.counts), fields: fields(e.counts, 0, 0) };
        }
        case 'progress':
          return { kind: 'bar', done: done(e.counts), fields: fields(e.counts, e.inFlight, e.credits) };
        case 'end':
          return { kind: 'bar', done: done(e.counts), fields: fields(e.counts, 0, e.credits) };
        case 'warning':
          return { kind: 'problem', line: `warning: ${e.message}` };
        case 'file-problem':
          return { kind: 'problem', line: `file ${e.fileId} of row ${e.itemId}: ${e.status}: ${e.reason}` };
        case 'cap':
          return { kind: 'detail', line: `in-flight cap now ${e.cap} (${e.reason})` };
        default:
          return null;
      }
    },
  };
}

/** Picks the renderer for this terminal and flags, reading model batch events (and file downloads). */
export function pickModelsRenderer(json: boolean, io: CliIo): ProgressRenderer<ModelBatchEvent | DownloadEvent> {
  return pickRenderer(json, io, modelProgress());
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
