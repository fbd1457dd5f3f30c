import type { ExportStatus } from '../store/export-rows.js';
import type { FileStore, ReadStore } from '../store/port.js';
import type { BatchRecord, DecisionRecord, FileRecord } from '../store/types.js';
import { formatBytes } from '../format-bytes.js';
import { escapeHtml, markdown, note, type MimeBundle } from './bundle.js';
import { NotebookError } from './errors.js';
import { fileLabel, renderFile, type FileRenderOptions } from './file-view.js';
import { statusOf } from './items.js';
import { table } from './table.js';

/** One run of an item's chain. */
export interface ChainRun {
  step: number;
  id: string;
  parentRunId: string | null;
  status: string;
  /** The tool the run paused on, if it paused. */
  pausedOn: string | null;
  /** The service's error code and message when the run failed, else null. */
  errorCode: string | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  seconds: number | null;
}

/** One answer to a pause: the stored decision without its keys. */
export type ItemDecision = Omit<DecisionRecord, 'id' | 'batchId' | 'itemId' | 'runId' | 'respondKey'>;

/** Everything about one item: question, answer, every run of its chain, decisions, files. */
export interface ItemDetail {
  batch: string;
  id: string;
  status: ExportStatus;
  runStatus: string | null;
  question: string;
  /** The answer (Markdown) or the text so far. */
  text: string | null;
  /** Why it failed: the service's message verbatim, or resq's for a refused request. */
  error: string | null;
  /** The service's error code (`agent_error`, …), or null. */
  errorCode: string | null;
  holdReason: string | null;
  threadId: string | null;
  meta: Record<string, unknown>;
  runs: ChainRun[];
  decisions: ItemDecision[];
  files: FileRecord[];
}

/** Reads one item in full; a clear error names a few ids when there is no such item. */
export async function itemDetail(store: ReadStore & FileStore, batch: BatchRecord, id: string): Promise<ItemDetail> {
  const it = await store.getItem(batch.id, id);
  if (!it) {
    const some = (await store.listItems(batch.id, { limit: 5 })).map((i) => i.id);
    const hint = some.length ? `; its items include ${some.join(', ')}` : '; it has no items';
    throw new NotebookError(`batch "${batch.name}" has no item "${id}"${hint}`);
  }
  return {
    batch: batch.name,
    id: it.id,
    status: statusOf(it.state),
    runStatus: it.runStatus,
    question: it.question,
    text: it.text,
    error: it.error,
    errorCode: it.errorCode,
    holdReason: it.holdReason,
    threadId: it.threadId,
    meta: it.meta,
    runs: (await store.runChain(batch.id, id)).map((r) => ({
      step: r.step,
      id: r.id,
      parentRunId: r.parentRunId,
      status: r.status,
      pausedOn: r.requiredAction?.tool ?? null,
      errorCode: r.errorCode,
      error: r.error,
      createdAt: r.createdAt,
      finishedAt: r.finishedAt,
      seconds: r.finishedAt ? Math.max(0, (Date.parse(r.finishedAt) - Date.parse(r.createdAt)) / 1000) : null,
    })),
    decisions: (await store.decisionsForItem(batch.id, id)).map((d) => ({
      tool: d.tool,
      input: d.input,
      answer: d.answer,
      by: d.by,
      person: d.person,
      reason: d.reason,
      cost: d.cost,
      decidedAt: d.decidedAt,
    })),
    files: await store.filesForItem(batch.id, id),
  };
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
}

/**
 * An item as a list of outputs: a heading with the question, the answer as Markdown, the
 * decisions and runs as tables, and each file (images inline, Markdown and CSV rendered,
 * other files as path and size, files not on disk with the reason).
 */
export function renderItem(d: ItemDetail, o: FileRenderOptions = {}): MimeBundle[] {
  const meta = Object.entries(d.meta)
    .map(([k, v]) => `**${k}**: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' · ');
  const head = [
    `### ${d.batch} / ${d.id} — ${d.status}${d.runStatus && d.runStatus !== d.status ? ` (run status ${d.runStatus})` : ''}`,
    '',
    quote(d.question),
    ...(meta ? ['', meta] : []),
    ...(d.error ? ['', `**error**${d.errorCode ? ` (${d.errorCode})` : ''}: ${d.error}`] : []),
    ...(d.holdReason ? ['', `**held**: ${d.holdReason}`] : []),
  ].join('\n');
  const out: MimeBundle[] = [markdown(head)];
  out.push(d.text ? markdown(d.text) : note(`${d.id} has no answer yet (status ${d.status})`));
  if (d.decisions.length)
    out.push(
      table(
        d.decisions.map((x) => ({ tool: x.tool, by: x.by, answer: JSON.stringify(x.answer), cost: x.cost, reason: x.reason, input: JSON.stringify(x.input) })),
        { caption: 'Decisions', maxCell: 90 },
      ),
    );
  out.push(
    table(
      d.runs.map((r) => ({ step: r.step, run: r.id, status: r.status, paused_on: r.pausedOn, error_code: r.errorCode, error: r.error, seconds: r.seconds, started: r.createdAt })),
      { caption: 'Runs', empty: 'no run was started' },
    ),
  );
  out.push(
    table(
      d.files.map((f) => ({ name: f.name ?? f.id, role: f.role, media_type: f.mediaType, status: f.status, size: f.bytes === null ? null : formatBytes(f.bytes), path: f.path })),
      { caption: 'Files', empty: 'no files', maxCell: 200 },
    ),
  );
  for (const f of d.files) {
    const shown = renderFile(f, o);
    // Images and Markdown carry no name of their own: say which file they are.
    if (shown['image/png'] || shown['image/jpeg'] || shown['image/svg+xml'] || shown['text/markdown'])
      out.push({ 'text/html': `<p><strong>${escapeHtml(fileLabel(f))}</strong> <small>${escapeHtml(`${f.mediaType ?? ''} ${formatBytes(f.bytes)}`.trim())}</small></p>`, 'text/plain': fileLabel(f) });
    out.push(shown);
  }
  return out;
}
