import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/read/batch-list.ts
async function holdsNoBatch(store) {
  return (await store.listBatches()).length === 0;
}

export {
  holdsNoBatch
};
//# sourceMappingURL=chunk-EB3O5FDB.mjs.map
