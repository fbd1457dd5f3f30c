import { STATE_COLORS } from '../store/item-states.js';
import type { ExportStatus } from '../store/export-rows.js';
import { decisionNote, deciderName } from '../store/decision-text.js';
import type { BatchDecision, RunTime } from '../store/shapes.js';
import type { FileRecord } from '../store/types.js';
import { formatBytes } from '../format-bytes.js';
import { planCost, untrustedCost } from '../policy/cost.js';
import { type MimeBundle } from './bundle.js';
import { fileKind } from './file-view.js';
import type { BatchSummary } from './summary.js';
import { barChart, histogram, PALETTE, type Bar } from '../charts/svg-chart.js';

/** Colour of each item status in charts: the item states' own (store/item-states.ts). */
export const STATUS_COLORS: Record<ExportStatus, string> = STATE_COLORS;

/** Items by status, one bar each (statuses with no items left out). */
export function statusChart(s: BatchSummary): MimeBundle {
  const bars: Bar[] = (Object.keys(s.counts) as ExportStatus[])
    .filter((k) => s.counts[k] > 0)
    .map((k) => ({ label: k, value: s.counts[k], color: STATUS_COLORS[k] }));
  return barChart(bars, { title: `Items by status — ${s.batch}`, empty: `batch "${s.batch}" has no items` });
}

/** One run's duration. */
export interface RunDuration {
  item: string;
  step: number;
  run: string;
  status: string;
  /** The tool the run paused on, if it paused. */
  paused_on: string | null;
  /** Null while the run has not finished, or when it ended unwatched and the service sent no times. */
  seconds: number | null;
  /** When it ended while no resq watched: at or before this time (ISO 8601); else null. */
  ended_unwatched: string | null;
}

/** Durations of a batch's runs as recorded (the service's own times when it sent them). */
export function runDurations(times: readonly RunTime[]): RunDuration[] {
  return times.map((t) => ({
    item: t.itemId,
    step: t.step,
    run: t.runId,
    status: t.status,
    paused_on: t.tool,
    seconds: t.seconds,
    ended_unwatched: t.unwatched ? t.finishedAt : null,
  }));
}

/**
 * Run durations: with up to `maxBars` items, one bar per item split into its chain's runs
 * (first run, then one per answered pause); with more, a histogram of run durations.
 */
export function durationChart(runs: readonly RunDuration[], o: { title?: string; maxBars?: number } = {}): MimeBundle {
  const done = runs.filter((r) => r.seconds !== null);
  const title = o.title ?? 'Run durations';
  const empty = 'no finished runs';
  const items = [...new Set(done.map((r) => r.item))];
  if (items.length > (o.maxBars ?? 40))
    return histogram(
      done.map((r) => r.seconds!),
      { title: `${title} (${done.length} runs)`, unit: 's', empty },
    );
  const steps = Math.max(0, ...done.map((r) => r.step)) + 1;
  const bars: Bar[] = items.map((item) => {
    const chain = done.filter((r) => r.item === item).sort((a, b) => a.step - b.step);
    const total = chain.reduce((s, r) => s + r.seconds!, 0);
    return {
      label: item,
      value: total,
      segments: chain.map((r) => ({
        value: r.seconds!,
        color: PALETTE[r.step % PALETTE.length] ?? '#888',
        label: `${item} run ${r.step + 1} (${r.status}${r.paused_on ? `, paused on ${r.paused_on}` : ''}): ${r.seconds!.toFixed(2)} s`,
      })),
      text: `${total.toFixed(2)} s${chain.length > 1 ? ` in ${chain.length} runs` : ''}`,
    };
  });
  const legend = steps > 1 ? Array.from({ length: steps }, (_, i) => ({ label: i === 0 ? 'first run' : `after answer ${i}`, color: PALETTE[i % PALETTE.length] ?? '#888' })) : undefined;
  return barChart(bars, { title, unit: 's', empty, ...(legend ? { legend } : {}) });
}

/** A plan the agent asked to approve (a `confirm_scope` pause) and what became of it. */
export interface PlanCost {
  item: string;
  /** The cost the plan asked for (0 when it named none, or one resq does not trust). */
  cost: number;
  /** The cost as the service sent it, marked (`1e308 (untrusted: above 1e12)`), when it is untrusted; else null. */
  untrustedCost: string | null;
  approved: boolean;
  by: 'policy' | 'person';
  /** The person who decided (null for the policy, or a person who gave no name). */
  person: string | null;
  reason: string | null;
  /** The note given with the decision, or null. */
  note: string | null;
}

/** The plans of a batch, from its decisions. */
export function planCosts(decisions: readonly BatchDecision[]): PlanCost[] {
  return decisions
    .filter((d) => d.tool === 'confirm_scope')
    .map((d) => ({
      item: d.itemId,
      cost: planCost(d.input) ?? 0,
      untrustedCost: untrustedCost(d.input),
      approved: d.answer.approved === true,
      by: d.by,
      person: d.by === 'person' ? (d.person ?? null) : null,
      reason: d.reason,
      note: decisionNote(d),
    }));
}

/** Cost of each plan, approved ones in colour and declined ones in grey, with the total against the budget. */
export function planCostChart(plans: readonly PlanCost[], o: { budget?: number | null; title?: string } = {}): MimeBundle {
  const approved = plans.filter((p) => p.approved).reduce((s, p) => s + p.cost, 0);
  const budget = o.budget != null ? ` of budget ${o.budget}` : '';
  const bars: Bar[] = plans.map((p) => ({
    label: p.item,
    value: p.cost,
    color: p.approved ? '#59a14f' : '#bab0ac',
    text: `${p.untrustedCost ?? p.cost} ${p.approved ? 'approved' : 'declined'} (${deciderName({ by: p.by, person: p.person ?? null })})`,
  }));
  return barChart(bars, {
    title: o.title ?? `Cost of plans — ${approved} approved${budget}`,
    unit: 'credits',
    empty: 'no plan asked for approval (no confirm_scope pause)',
    legend: [
      { label: 'approved', color: '#59a14f' },
      { label: 'declined', color: '#bab0ac' },
    ],
  });
}

/** The media type of a file without parameters, else a guess from its name, else "unknown". */
export function mediaTypeOf(f: Pick<FileRecord, 'mediaType' | 'name'>): string {
  const t = f.mediaType?.split(';')[0]?.trim().toLowerCase();
  if (t) return t;
  const k = fileKind(null, f.name);
  return k === 'other' ? 'unknown' : `${k} (by name)`;
}

/** Files by media type: how many, and their size on disk. */
export function mediaTypeChart(files: readonly FileRecord[], o: { title?: string } = {}): MimeBundle {
  const groups = new Map<string, { n: number; bytes: number; notOnDisk: number }>();
  for (const f of files) {
    const g = groups.get(mediaTypeOf(f)) ?? { n: 0, bytes: 0, notOnDisk: 0 };
    g.n++;
    if (f.status === 'downloaded') g.bytes += f.bytes ?? 0;
    else g.notOnDisk++;
    groups.set(mediaTypeOf(f), g);
  }
  const bars: Bar[] = [...groups.entries()]
    .sort((a, b) => b[1].n - a[1].n)
    .map(([type, g], i) => ({
      label: type,
      value: g.n,
      color: PALETTE[i % PALETTE.length] ?? '#888',
      text: `${g.n} (${formatBytes(g.bytes)}${g.notOnDisk ? `, ${g.notOnDisk} not on disk` : ''})`,
    }));
  return barChart(bars, { title: o.title ?? 'Files by media type', empty: 'no files' });
}
