import type { ItemVerdicts, ScorerRef, Verdict } from '../score/types.js';
import type { BatchRecord, ItemRecord, ReadStore, ScoreStore } from '../store/index.js';

/** The store reads a verdict walk needs: a batch's items and its verdicts, each a page at a time. */
export type VerdictReads = Pick<ReadStore, 'listItems' | 'getItem'> & Pick<ScoreStore, 'verdictsPage' | 'verdictsOf'>;

/** A verdict as an export row and the notebook show it: pass, score and reason (all null when not judged). */
export interface ShownVerdict {
  pass: boolean | null;
  score: number | null;
  reason: string | null;
}

/**
 * A batch's verdict pages read alongside something walked in seq order (its items, its export
 * rows): `at(seq)` gives the verdicts of the item at `seq`, reading the next page of judged
 * items when needed and dropping those of items passed over. Seqs must not go down; only one
 * page is held, whatever the batch's size.
 */
export class VerdictCursor {
  readonly #store: Pick<VerdictReads, 'verdictsPage'>;
  readonly #batchId: string;
  readonly #pageSize: number;
  #page: ItemVerdicts[] = [];
  #i = 0;
  #after = -1;
  #done = false;

  constructor(store: Pick<VerdictReads, 'verdictsPage'>, batchId: string, pageSize = 500) {
    this.#store = store;
    this.#batchId = batchId;
    this.#pageSize = pageSize;
  }

  /** The verdicts of the item at `seq` (every scorer and version); [] when it has none. */
  async at(seq: number): Promise<Verdict[]> {
    for (;;) {
      while (this.#i < this.#page.length && this.#page[this.#i]!.seq < seq) this.#i++;
      if (this.#i < this.#page.length) return this.#page[this.#i]!.seq === seq ? this.#page[this.#i]!.verdicts : [];
      if (this.#done) return [];
      this.#page = await this.#store.verdictsPage(this.#batchId, { afterSeq: this.#after, limit: this.#pageSize });
      this.#i = 0;
      if (this.#page.length < this.#pageSize) this.#done = true;
      if (this.#page.length > 0) this.#after = this.#page[this.#page.length - 1]!.seq;
    }
  }
}

/**
 * Rows read a page at a time in seq order (`readPage(afterSeq, limit)`), each with its item's
 * verdicts (every scorer and version) from a {@link VerdictCursor}: one page of each held.
 * With no `store` nothing is judged to show and each row comes with [] (no verdict read).
 */
export async function* alongsideVerdicts<T>(
  store: Pick<VerdictReads, 'verdictsPage'> | null,
  batchId: string,
  readPage: (afterSeq: number, limit: number) => Promise<T[]>,
  seqOf: (row: T) => number,
  pageSize = 500,
): AsyncGenerator<{ row: T; verdicts: Verdict[] }> {
  const cursor = store ? new VerdictCursor(store, batchId, pageSize) : null;
  for (let after = -1; ; ) {
    const page = await readPage(after, pageSize);
    for (const row of page) yield { row, verdicts: cursor ? await cursor.at(seqOf(row)) : [] };
    if (page.length < pageSize) return;
    after = seqOf(page[page.length - 1]!);
  }
}

/** The version of each scorer the batch judges with (`--score`), by name. */
export function scorerVersionsOf(batch: BatchRecord): Map<string, string> {
  return new Map((batch.settings.scorers ?? []).map((s) => [s.name, s.version]));
}

/** One verdict per scorer name among those `keep` lets through: the one judged last. */
function latestByScorer(verdicts: readonly Verdict[], keep: (v: Verdict) => boolean): Map<string, Verdict> {
  const out = new Map<string, Verdict>();
  for (const v of verdicts) {
    if (!keep(v) || (out.get(v.scorer)?.scoredAt ?? '') > v.scoredAt) continue;
    out.set(v.scorer, v);
  }
  return out;
}

/**
 * One verdict per scorer name: of the version the batch judges with when it names the scorer
 * (none when that version has not judged the item), else the latest judged.
 */
export function verdictByScorer(verdicts: readonly Verdict[], versions: ReadonlyMap<string, string>): Map<string, Verdict> {
  return latestByScorer(verdicts, (v) => (versions.get(v.scorer) ?? v.version) === v.version);
}

/** The distinct names of `refs`, in their order: one export column pair (`pass_NAME`, `score_NAME`) each. */
export function scorerNames(refs: readonly ScorerRef[]): string[] {
  return [...new Set(refs.map((r) => r.name))];
}

/**
 * An item's verdicts by scorer name, each shown scorer present (null fields when not judged);
 * of two shown versions of one name the one judged last counts.
 */
export function verdictsByName(refs: readonly ScorerRef[], verdicts: readonly Verdict[]): Record<string, ShownVerdict> {
  const picked = latestByScorer(verdicts, (v) => refs.some((r) => r.name === v.scorer && r.version === v.version));
  const out: Record<string, ShownVerdict> = {};
  for (const name of scorerNames(refs)) {
    const v = picked.get(name);
    out[name] = v ? { pass: v.pass, score: v.score, reason: v.reason } : { pass: null, score: null, reason: null };
  }
  return out;
}

/** A batch's items in file order, a page at a time, each with one verdict per scorer ({@link verdictByScorer}). */
export async function* itemsWithVerdicts(store: VerdictReads, batch: BatchRecord, pageSize = 500): AsyncGenerator<{ item: ItemRecord; verdicts: Map<string, Verdict> }> {
  const versions = scorerVersionsOf(batch);
  const items = alongsideVerdicts(store, batch.id, (afterSeq, limit) => store.listItems(batch.id, { afterSeq, limit }), (i) => i.seq, pageSize);
  for await (const { row, verdicts } of items) yield { item: row, verdicts: verdictByScorer(verdicts, versions) };
}
