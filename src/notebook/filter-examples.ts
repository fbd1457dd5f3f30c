import type { MetaValue } from '../store/shapes.js';
import type { ItemRow } from './items.js';

/** One meta field of a batch (a column of its question set) and its values, most common first. */
export interface MetaField {
  field: string;
  values: { value: Exclude<MetaValue, null>; items: number }[];
}

/**
 * A batch's own meta fields with their values (plain values only; lists and objects are left
 * out), fields in order of first appearance, each field's values most common first: what a
 * notebook's filtering examples pick from, whatever the batch.
 */
export function metaFields(rows: readonly ItemRow[]): MetaField[] {
  const fields = new Map<string, Map<string | number | boolean, number>>();
  for (const r of rows)
    for (const [k, v] of Object.entries(r.meta)) {
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') continue;
      if (v === '') continue;
      const counts = fields.get(k) ?? new Map<string | number | boolean, number>();
      counts.set(v, (counts.get(v) ?? 0) + 1);
      fields.set(k, counts);
    }
  return [...fields].map(([field, counts]) => ({
    field,
    values: [...counts].map(([value, items]) => ({ value, items })).sort((a, b) => b.items - a.items),
  }));
}

/** English words of five letters or more that say nothing about a question's subject. */
const COMMON = new Set(['about', 'after', 'their', 'there', 'these', 'those', 'which', 'where', 'while', 'would', 'should', 'could', 'other', 'first', 'between', 'please', 'explain', 'describe']);

/**
 * A word to search the batch's items for: the most common word of five letters or more
 * that some of its questions have and others do not (ties: the first seen); null when
 * there is none. Directives (`@files=md`) and a few common English words are not examples.
 */
export function exampleWord(rows: readonly ItemRow[]): string | null {
  const counts = new Map<string, number>();
  for (const r of rows) {
    const words = new Set(r.question.replace(/@\S+/g, ' ').toLowerCase().match(/\p{L}{5,}/gu) ?? []);
    for (const w of words) if (!COMMON.has(w)) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  let best: string | null = null;
  let most = 0;
  for (const [w, n] of counts) if (n < rows.length && n > most) [best, most] = [w, n];
  return best;
}
