import { InputError } from '../errors.js';
import { planCost, untrustedCost } from '../policy/cost.js';
import type { ReadStore } from '../store/port.js';
import type { BatchRecord, ItemRecord } from '../store/types.js';

/**
 * Which held items a bulk decision takes: every condition given must hold. A cost bound
 * matches only items whose pause names a cost (a plan's `input.cost`); `where` compares a
 * meta field's text (a number or boolean as its JSON text); `text` is found, ignoring case,
 * in the id, the question or the hold reason; `ids` keeps only the items named.
 */
export interface HeldFilter {
  tool?: string;
  minCost?: number;
  maxCost?: number;
  /** Each key is `meta.KEY`. */
  where?: readonly { key: string; value: string }[];
  text?: string;
  ids?: readonly string[];
}

/** One held item as a bulk decision sees it: its pause (tool, input, cost) and why it is held. */
export interface SelectedHeld {
  id: string;
  seq: number;
  /** The paused run: the decision is for this pause and no later one. */
  runId: string;
  tool: string;
  input: Record<string, unknown>;
  /** The pause's `input.cost` when it is trusted (planCost), else null: an untrusted cost counts in no total and matches no cost bound. */
  cost: number | null;
  /** The cost as the service sent it, marked, when it is untrusted; else null. */
  untrustedCost: string | null;
  holdReason: string | null;
  question: string;
  meta: Record<string, unknown>;
}

/** The held items a filter selects, in file order. */
export interface HeldSelection {
  items: SelectedHeld[];
  /** Sum of the items' costs (items without one count 0). */
  totalCost: number;
  /** `ids` of the filter that are not held now (answered, ended, or no such item), in the order given. */
  notHeld: string[];
}

/** Checks a filter: one line naming the field when it cannot select anything sensible. */
export function checkHeldFilter(f: HeldFilter): void {
  for (const [name, v] of [['min-cost', f.minCost], ['max-cost', f.maxCost]] as const)
    if (v !== undefined && (!Number.isFinite(v) || v < 0)) throw new InputError(`--${name}: give a number of 0 or more`);
  if (f.minCost !== undefined && f.maxCost !== undefined && f.minCost > f.maxCost)
    throw new InputError(`--min-cost ${f.minCost} is more than --max-cost ${f.maxCost}: no item can match`);
  for (const w of f.where ?? []) if (!/^meta\..+/.test(w.key)) throw new InputError(`--where ${w.key}=…: name a meta field as meta.KEY=VALUE`);
  if (f.tool !== undefined && f.tool.trim() === '') throw new InputError('--tool: give a tool name (confirm_scope, ask_choice, request_quality_image, …)');
}

/** `meta.KEY=VALUE` as a where condition; InputError when it is not one. */
export function parseWhere(s: string): { key: string; value: string } {
  const eq = s.indexOf('=');
  const key = eq < 0 ? s : s.slice(0, eq);
  if (eq < 0 || !/^meta\..+/.test(key)) throw new InputError(`--where ${s}: write it as meta.KEY=VALUE`);
  return { key, value: s.slice(eq + 1) };
}

function metaText(v: unknown): string | null {
  if (v === undefined) return null;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** Whether a held item and its pause meet the filter. */
export function heldMatches(f: HeldFilter, it: Pick<SelectedHeld, 'id' | 'tool' | 'cost' | 'holdReason' | 'question' | 'meta'>): boolean {
  if (f.tool !== undefined && it.tool !== f.tool.trim()) return false;
  if ((f.minCost !== undefined || f.maxCost !== undefined) && it.cost === null) return false;
  if (f.minCost !== undefined && it.cost! < f.minCost) return false;
  if (f.maxCost !== undefined && it.cost! > f.maxCost) return false;
  for (const w of f.where ?? []) if (metaText(it.meta[w.key.slice('meta.'.length)]) !== w.value) return false;
  if (f.text) {
    const t = f.text.toLowerCase();
    if (![it.id, it.question, it.holdReason ?? ''].some((s) => s.toLowerCase().includes(t))) return false;
  }
  return true;
}

/** How many held items are read per page (their runs read side by side). */
const PAGE = 200;

async function pauseOf(store: ReadStore, it: ItemRecord): Promise<SelectedHeld | null> {
  const run = it.runId ? await store.getRun(it.runId) : null;
  const action = run?.requiredAction;
  if (!action || !it.runId) return null;
  const cost = planCost(action.input);
  return { id: it.id, seq: it.seq, runId: it.runId, tool: action.tool, input: action.input, cost, untrustedCost: untrustedCost(action.input), holdReason: it.holdReason, question: it.question, meta: it.meta };
}

/**
 * The held items of a batch that meet `filter`, each with its pause (tool, input, cost), in
 * file order: what `resq answer --held` and the page's bulk decision answer, and what a
 * policy can be tried on. Reads only. InputError when the filter is not valid.
 */
export async function selectHeld(store: ReadStore, batch: BatchRecord, filter: HeldFilter = {}): Promise<HeldSelection> {
  checkHeldFilter(filter);
  const items: SelectedHeld[] = [];
  const wanted = filter.ids ? new Set(filter.ids) : null;
  if (wanted?.size === 0) return { items, totalCost: 0, notHeld: [] };
  const seen = new Set<string>();
  let afterSeq = -1;
  for (;;) {
    const page = await store.listItems(batch.id, { states: ['held'], afterSeq, limit: PAGE });
    for (const it of page) seen.add(it.id);
    const pauses = await Promise.all(page.filter((it) => !wanted || wanted.has(it.id)).map((it) => pauseOf(store, it)));
    for (const p of pauses) if (p && heldMatches(filter, p)) items.push(p);
    if (page.length < PAGE) break;
    afterSeq = page.at(-1)!.seq;
  }
  const notHeld = filter.ids ? [...new Set(filter.ids)].filter((id) => !seen.has(id)) : [];
  return { items, totalCost: items.reduce((n, i) => n + (i.cost ?? 0), 0), notHeld };
}
