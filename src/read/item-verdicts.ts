import type { ItemVerdicts, Verdict } from '../score/types.js';
import type { BatchRecord, ItemRecord, ReadStore, ScoreStore } from '../store/index.js';

/** The store reads a verdict walk needs: a batch's items and its verdicts, each a page at a time. */
export type VerdictReads = Pick<ReadStore, 'listItems' | 'getItem'> & Pick<ScoreStore, 'verdictsPage' | 'verdictsOf'>;

/**
 * A batch's verdict pages read alongside something walked in seq order (its items, its export
 * rows): `at(seq)` gives the verdicts of the item at `seq`, reading the next page when needed.
 * Seqs must not go down; only one page is held.
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

/** The version of each scorer the batch judges with (`--score`), by name. */
export function scorerVersionsOf(batch: BatchRecord): Map<string, string> {
  return new Map((batch.settings.scorers ?? []).map((s) => [s.name, s.version]));
}

/**
 * One verdict per scorer name: of the version the batch judges with when it names the scorer
 * (none when that version has not judged the item), else the latest judged.
 */
export function verdictByScorer(verdicts: readonly Verdict[], versions: ReadonlyMap<string, string>): Map<string, Verdict> {
  const out = new Map<string, Verdict>();
  for (const v of verdicts) {
    const want = versions.get(v.scorer);
    if (want !== undefined ? v.version !== want : (out.get(v.scorer)?.scoredAt ?? '') > v.scoredAt) continue;
    out.set(v.scorer, v);
  }
  return out;
}

/** A batch's items in file order, a page at a time, each with one verdict per scorer ({@link verdictByScorer}). */
export async function* itemsWithVerdicts(store: VerdictReads, batch: BatchRecord, pageSize = 500): AsyncGenerator<{ item: ItemRecord; verdicts: Map<string, Verdict> }> {
  const versions = scorerVersionsOf(batch);
  const cursor = new VerdictCursor(store, batch.id, pageSize);
  let after = -1;
  for (;;) {
    const page = await store.listItems(batch.id, { afterSeq: after, limit: pageSize });
    for (const item of page) yield { item, verdicts: verdictByScorer(await cursor.at(item.seq), versions) };
    if (page.length < pageSize) return;
    after = page[page.length - 1]!.seq;
  }
}
