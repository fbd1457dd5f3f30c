/**
 * Rows as aligned text columns two spaces apart, the first row usually the header: each cell
 * padded to its column's widest (the columns in `right` at the left, as numbers are), each
 * line's trailing spaces cut. The cells must be printable already (oneLine).
 */
export function alignColumns(rows: readonly (readonly string[])[], right: readonly number[] = []): string[] {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => r[i]?.length ?? 0)));
  return rows.map((r) => r.map((c, i) => (right.includes(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd());
}
