import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/runner/store-fault.ts
function isStoreFault(err) {
  if (!(err instanceof Error)) return false;
  if (err.name === "SqliteError") return true;
  const code = err.code;
  if (code === "RESQ_DATABASE") return true;
  if (typeof code === "string" && code.startsWith("SQLITE_")) return true;
  const pg = err;
  return typeof pg.severity === "string" && typeof code === "string" && /^[0-9A-Z]{5}$/.test(code);
}
function isDiskFull(err) {
  let e = err;
  for (let depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const code = e.code;
    if (code === "SQLITE_FULL" || code === "53100") return true;
    e = e.cause;
  }
  return false;
}

export {
  isStoreFault,
  isDiskFull
};
//# sourceMappingURL=chunk-7GICCHH3.mjs.map
