import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/cli/lease-env.ts
function leaseMsFromEnv(env) {
  const v = Number(env.RESQ_LEASE_MS);
  return Number.isInteger(v) && v >= 100 ? v : void 0;
}

export {
  leaseMsFromEnv
};
//# sourceMappingURL=chunk-LZGVM7C3.mjs.map
