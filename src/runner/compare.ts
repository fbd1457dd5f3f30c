import type { BatchRecord, ReadStore } from '../store/index.js';
import type { ItemAggregate } from '../store/port.js';
import { decisionInWords } from '../read/decision-text.js';
import { lineDiff, type DiffLine } from './text-diff.js';

/** One batch's side of a compared item. */
export interface CompareSide {
  state: string;
  runStatus: string | null;
  /** The question the item asked in this batch. */
  question: string;
  text: string | null;
  /** Each decision in words (`confirm_scope: approved by ana`, `ask_choice: chose a, b by the policy`), in the order made. */
  decisions: string[];
  /** File names (else role, else id), sorted. */
  files: string[];
}

/** The same item id in two batches, side by side. */
export interface ItemComparison {
  id: string;
  /** Null when batch A has no item of this id. */
  a: CompareSide | null;
  b: CompareSide | null;
  stateChanged: boolean;
  /** The question itself differs (the same id asked something else). */
  questionChanged: boolean;
  answerChanged: boolean;
  decisionsDiffer: boolean;
  /** File names in B and not in A. */
  filesAdded: string[];
  /** File names in A and not in B. */
  filesGone: string[];
  /** The answer's line diff when it changed and both sides have one, else null. */
  diff: DiffLine[] | null;
}

/** Counts at the top of a comparison. */
export interface CompareCounts {
  /** Ids in both batches. */
  both: number;
  onlyA: number;
  onlyB: number;
  /** In both and nothing differs. */
  same: number;
  stateChanged: number;
  questionChanged: number;
  answerChanged: number;
  decisionsDiffer: number;
  filesChanged: number;
}

/** Whether anything about the item differs between the batches. */
export function hasChanges(c: ItemComparison): boolean {
  return !c.a || !c.b || c.stateChanged || c.questionChanged || c.answerChanged || c.decisionsDiffer || c.filesAdded.length > 0 || c.filesGone.length > 0;
}

function sideOf(g: ItemAggregate): CompareSide {
  return {
    state: g.item.state === 'submitting' ? 'running' : g.item.state,
    runStatus: g.item.runStatus,
    question: g.item.question,
    text: g.item.text,
    decisions: g.decisions.map(decisionInWords),
    files: g.files.map((f) => f.name ?? f.role ?? f.id).sort(),
  };
}

/** Names in `x` not matched in `y`, counting repeats (a multiset difference). */
function minus(x: readonly string[], y: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const n of y) left.set(n, (left.get(n) ?? 0) + 1);
  const out: string[] = [];
  for (const n of x) {
    const k = left.get(n) ?? 0;
    if (k > 0) left.set(n, k - 1);
    else out.push(n);
  }
  return out;
}

/** Compares one item's two sides (either may be missing). */
export function compareSides(id: string, a: CompareSide | null, b: CompareSide | null): ItemComparison {
  if (!a || !b) return { id, a, b, stateChanged: false, questionChanged: false, answerChanged: false, decisionsDiffer: false, filesAdded: b?.files ?? [], filesGone: a?.files ?? [], diff: null };
  const answerChanged = (a.text ?? '') !== (b.text ?? '');
  return {
    id,
    a,
    b,
    stateChanged: a.state !== b.state,
    questionChanged: a.question !== b.question,
    answerChanged,
    decisionsDiffer: a.decisions.length !== b.decisions.length || a.decisions.some((d, i) => d !== b.decisions[i]),
    filesAdded: minus(b.files, a.files),
    filesGone: minus(a.files, b.files),
    diff: answerChanged && a.text !== null && b.text !== null ? lineDiff(a.text, b.text) : null,
  };
}

async function* aggregatesOf(store: ReadStore, batch: BatchRecord, pageSize: number): AsyncGenerator<ItemAggregate> {
  let after = -1;
  for (;;) {
    const page = await store.aggregates(batch.id, after, pageSize);
    yield* page;
    if (page.length < pageSize) return;
    after = page.at(-1)!.item.seq;
  }
}

/**
 * Compares two batches item by item (the same ids): batch A's items in its file order, then
 * those only B has, in B's order. B's side is read first and kept in memory (its decisions,
 * file names and answer text), A's is streamed.
 */
export async function* compareBatches(store: ReadStore, a: BatchRecord, b: BatchRecord, pageSize = 500): AsyncGenerator<ItemComparison> {
  const right = new Map<string, CompareSide>();
  for await (const g of aggregatesOf(store, b, pageSize)) right.set(g.item.id, sideOf(g));
  for await (const g of aggregatesOf(store, a, pageSize)) {
    const other = right.get(g.item.id) ?? null;
    right.delete(g.item.id);
    yield compareSides(g.item.id, sideOf(g), other);
  }
  for (const [id, side] of right) yield compareSides(id, null, side);
}

/** Adds one comparison to the counts. */
export function countComparison(n: CompareCounts, c: ItemComparison): void {
  if (!c.a) n.onlyB++;
  else if (!c.b) n.onlyA++;
  else {
    n.both++;
    if (!hasChanges(c)) n.same++;
    if (c.stateChanged) n.stateChanged++;
    if (c.questionChanged) n.questionChanged++;
    if (c.answerChanged) n.answerChanged++;
    if (c.decisionsDiffer) n.decisionsDiffer++;
    if (c.filesAdded.length || c.filesGone.length) n.filesChanged++;
  }
}

/** Counts all zero. */
export function emptyCounts(): CompareCounts {
  return { both: 0, onlyA: 0, onlyB: 0, same: 0, stateChanged: 0, questionChanged: 0, answerChanged: 0, decisionsDiffer: 0, filesChanged: 0 };
}

/** A whole comparison: the counts, and the items that differ (at most `limit` of them, in order). */
export async function compareSummary(store: ReadStore, a: BatchRecord, b: BatchRecord, limit = 1000): Promise<{ counts: CompareCounts; changed: ItemComparison[]; more: boolean }> {
  const counts = emptyCounts();
  const changed: ItemComparison[] = [];
  let more = false;
  for await (const c of compareBatches(store, a, b)) {
    countComparison(counts, c);
    if (!hasChanges(c)) continue;
    if (changed.length < limit) changed.push(c);
    else more = true;
  }
  return { counts, changed, more };
}
