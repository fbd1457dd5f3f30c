import { deciderLine, deciderOf } from '../read/decider.js';
import type { BatchStatus, Decider } from '../read/status-schema.js';
import type { BatchDecision } from '../store/shapes.js';
import { type MimeBundle } from './bundle.js';
import { formatNumber } from '../charts/svg-chart.js';
import { table } from './table.js';

/** One decision of a batch as a notebook row: the item, and who decided it, when, why, the note. */
export type DecisionRow = { item: string } & Decider;

/** A batch's decisions as rows naming who decided each and their note. */
export function decisionRows(decisions: readonly BatchDecision[]): DecisionRow[] {
  return decisions.map((d) => ({ item: d.itemId, ...deciderOf(d) }));
}

/** Decisions as a table: item, tool, decision in words, who, note, why, when, cost. */
export function decisionsTable(rows: readonly DecisionRow[]): MimeBundle {
  return table(
    rows.map((d) => ({ item: d.item, tool: d.tool, decision: d.words, by: d.by === 'policy' ? 'policy' : (d.person ?? 'person'), note: d.note, reason: d.reason, decided_at: d.decidedAt, cost: d.cost })),
    { caption: 'Decisions', empty: 'no decisions', maxCell: 90 },
  );
}

/**
 * A batch's status (the read model's, as `resq status` and the page show it) as a table:
 * counts, runs in flight against the cap, workers, rate and ETA (or the step that goes on),
 * held items with who decided their earlier pauses.
 */
export function statusTable(s: BatchStatus): MimeBundle {
  const cap = s.capLimit !== null && s.capLimit < s.concurrency ? `${s.concurrency} (lowered to ${s.capLimit} after HTTP 429)` : String(s.concurrency);
  const gone = s.workers.filter((w) => w.gone).length;
  const rows: { what: string; value: string }[] = [
    { what: 'batch', value: s.name },
    { what: 'items', value: String(s.total) },
    ...Object.entries(s.counts)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => ({ what: `  ${k}`, value: String(n) })),
    { what: 'in flight', value: `${s.inFlight} of ${cap}` },
    { what: 'workers', value: `${s.liveWorkers} live${gone ? `, ${gone} gone` : ''}` },
    { what: 'rate', value: s.ratePerS === null ? '—' : `${s.ratePerS.toFixed(2)} items/s` },
    { what: 'ETA', value: s.next ? `no ETA: ${s.next.text}` : s.unfinished === 0 ? 'done' : s.etaS === null ? '—' : `${formatNumber(s.etaS)} s` },
    { what: 'held for a person', value: String(s.held) },
    ...s.heldItems.flatMap((h) => [
      { what: `  ${h.id}`, value: `${h.tool ?? '?'}: ${h.question}` },
      ...h.decisions.map((d) => ({ what: '', value: `earlier ${d.tool}: ${deciderLine(d)}` })),
    ]),
    { what: 'failed or errored', value: String(s.failedTotal) },
  ];
  return table(rows, { caption: `Status of ${s.name}` });
}
