import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/cli/text/columns.ts
function alignColumns(rows, right = []) {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => r[i]?.length ?? 0)));
  return rows.map((r) => r.map((c, i) => right.includes(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])).join("  ").trimEnd());
}

export {
  alignColumns
};
//# sourceMappingURL=chunk-YFKNHOIT.mjs.map
