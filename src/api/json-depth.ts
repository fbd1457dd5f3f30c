/** How deep a pause's input may nest where it enters: SQLite's JSON functions refuse 1,000 levels, a page has no use for 64. */
export const INPUT_DEPTH = 64;

/** What stands for a value nested deeper than {@link INPUT_DEPTH} levels. */
export const CUT_MARK = `(nested deeper than ${INPUT_DEPTH} levels: cut by resq)`;

/**
 * A JSON value with everything nested deeper than `max` levels replaced by {@link CUT_MARK}:
 * an input the service nests thousands of levels deep is kept, readable, by every window and
 * both stores. Pure; a value within the limit comes back equal.
 */
export function cutDepth(value: unknown, max: number = INPUT_DEPTH): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (max <= 0) return CUT_MARK;
  if (Array.isArray(value)) return value.map((v) => cutDepth(v, max - 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutDepth(v, max - 1)]));
}
