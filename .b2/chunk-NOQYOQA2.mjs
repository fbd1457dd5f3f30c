import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/format-bytes.ts
var UNITS = ["KiB", "MiB", "GiB", "TiB", "PiB"];
function formatBytes(n) {
  if (n === null) return "size unknown";
  if (n < 1024) return `${n} B`;
  let v = n;
  let u = -1;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  if (Math.round(v) >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${UNITS[u]}`;
}

export {
  formatBytes
};
//# sourceMappingURL=chunk-NOQYOQA2.mjs.map
