import { systemClock } from '../clock.js';
import { InputError } from '../errors.js';
import type { ItemView } from '../read/item-schema.js';
import { readItemView } from '../read/item-view.js';
import type { FileStore, ReadStore, ScoreStore } from '../store/port.js';
import type { BatchRecord } from '../store/types.js';
import { formatBytes } from '../format-bytes.js';
import { escapeHtml, markdown, note, type MimeBundle } from './bundle.js';
import { NotebookError } from './errors.js';
import { fileLabel, renderFile, type FileRenderOptions, type FileView } from './file-view.js';
import { statusOf } from './items.js';
import { unwatchedText } from '../text/unwatched-run.js';
import { table } from './table.js';

/** Everything about one item: the read model's item view (question, runs, pauses with who decided, files). */
export type ItemDetail = ItemView;
export type { ChainRun } from '../read/item-schema.js';

/** Reads one item in full; a clear error names a few ids when there is no such item. */
export async function itemDetail(store: ReadStore & FileStore & ScoreStore, batch: BatchRecord, id: string, nowMs = systemClock.now()): Promise<ItemDetail> {
  try {
    return await readItemView(store, batch, id, { nowMs });
  } catch (e) {
    if (e instanceof InputError) throw new NotebookError(e.message);
    throw e;
  }
}

// Every field named: tslab compiles without strictNullChecks, where the schema's nullable fields read as optional.
function asFileView(f: ItemView['files'][number]): FileView {
  return { id: f.id, name: f.name ?? null, role: f.role ?? null, mediaType: f.mediaType ?? null, status: f.status, path: f.path ?? null, bytes: f.bytes ?? null, error: f.error ?? null, expiresAt: f.expiresAt };
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
  const it = d.item;
  const status = statusOf(it.state);
  const meta = Object.entries(it.meta)
    .map(([k, v]) => `**${k}**: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' · ');
  const head = [
    `### ${d.batch.name} / ${it.id} — ${status}${it.runStatus && it.runStatus !== status ? ` (run status ${it.runStatus})` : ''}`,
    '',
    quote(it.question),
    ...(meta ? ['', meta] : []),
    ...(it.error ? ['', `**error**${it.errorCode ? ` (${it.errorCode})` : ''}: ${it.error}`] : []),
    ...(it.holdReason ? ['', `**held**: ${it.holdReason}`] : []),
    ...(d.next ? ['', `**not sent yet**: ${d.next.text}`] : []),
  ].join('\n');
  const out: MimeBundle[] = [markdown(head)];
  out.push(it.text ? markdown(it.text) : note(`${it.id} has no answer yet (status ${status})`));
  const decided = d.pauses.filter((p) => p.decision);
  if (decided.length)
    out.push(
      table(
        decided.map(({ tool, input, decision: x }) => ({
          tool,
          decision: x!.words,
          by: x!.by === 'policy' ? 'policy' : (x!.person ?? 'person'),
          note: x!.note,
          reason: x!.reason,
          decided_at: x!.decidedAt,
          cost: x!.cost,
          input: JSON.stringify(input),
        })),
        { caption: 'Decisions', maxCell: 90 },
      ),
    );
  out.push(
    table(
      d.runs.map((r) => ({ step: r.step, run: r.id, status: r.status, paused_on: r.pausedOn, error_code: r.errorCode, error: r.error, seconds: r.seconds, started: r.createdAt, ended: r.seconds === null && r.endedUnwatched ? unwatchedText(r.finishedAt) : r.finishedAt })),
      { caption: 'Runs', empty: 'no run was started' },
    ),
  );
  out.push(
    table(
      d.files.map((f) => ({ name: f.name ?? f.id, role: f.role, media_type: f.mediaType, status: f.status, size: f.bytes === null ? null : formatBytes(f.bytes), path: f.path })),
      { caption: 'Files', empty: 'no files', maxCell: 200 },
    ),
  );
  for (const file of d.files) {
    const f = asFileView(file);
    const shown = renderFile(f, o);
    // Images and Markdown carry no name of their own: say which file they are.
    if (shown['image/png'] || shown['image/jpeg'] || shown['image/svg+xml'] || shown['text/markdown'])
      out.push({ 'text/html': `<p><strong>${escapeHtml(fileLabel(f))}</strong> <small>${escapeHtml(`${f.mediaType ?? ''} ${formatBytes(f.bytes)}`.trim())}</small></p>`, 'text/plain': fileLabel(f) });
    out.push(shown);
  }
  return out;
}
