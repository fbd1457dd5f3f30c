import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  openStore
} from "./chunk-6FNU2YDX.mjs";
import {
  checkDbPath
} from "./chunk-KJQBQQMI.mjs";
import {
  oneLine
} from "./chunk-5GEFFECR.mjs";
import {
  maskLocation
} from "./chunk-755LHRXT.mjs";
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";
import {
  commandHint
} from "./chunk-BXVQVF7L.mjs";

// src/cli/open-batch.ts
async function openExistingStore(db, opts = {}) {
  checkDbPath(db, { mustExist: true });
  return openStore(db, opts);
}
async function openBatch(db, name, kind = "runs", opts = {}) {
  const store = await openExistingStore(db, opts);
  try {
    let batch = name ? await store.findBatch(name) : await store.latestBatch(kind);
    if (!name && batch?.settings.judgeOf !== void 0) batch = (await store.listBatches(kind)).find((b) => b.settings.judgeOf === void 0) ?? batch;
    if (batch && batch.kind !== kind)
      throw new InputError(
        kind === "runs" ? `this is a model batch (resq models status, export and batch act on it): ${commandHint(["resq", "models", "status", batch.name], { db })}` : `this is a batch of agent runs (resq status, export and resume act on it): ${commandHint(["resq", "status", batch.name], { db })}`
      );
    if (!batch) {
      const names = (await store.listBatches()).map((b) => b.name);
      const where = maskLocation(db);
      throw new InputError(
        name ? `${where}: no batch named "${name}"${names.length ? ` (batches: ${names.slice(0, 10).join(", ")})` : ""}` : `${where}: no batch yet (start one with resq run)`
      );
    }
    return { store, batch };
  } catch (e) {
    await store.close();
    throw e;
  }
}
async function findRunsBatch(store, name, flag) {
  const b = await store.findBatch(name);
  if (!b) throw new InputError(`${flag}: no batch named "${oneLine(name, 80)}"`);
  if (b.kind !== "runs") throw new InputError(`${flag}: batch "${oneLine(b.name, 80)}" is a model batch, not one of agent runs`);
  return b;
}
async function openBatches(db, name) {
  const store = await openExistingStore(db);
  try {
    if (!name) return { store, batches: await store.listBatches() };
    const batch = await store.findBatch(name);
    if (batch) return { store, batches: [batch] };
    const names = (await store.listBatches()).map((b) => b.name);
    throw new InputError(`${maskLocation(db)}: no batch named "${name}"${names.length ? ` (batches: ${names.slice(0, 10).join(", ")})` : ""}`);
  } catch (e) {
    await store.close();
    throw e;
  }
}

export {
  openExistingStore,
  openBatch,
  findRunsBatch,
  openBatches
};
//# sourceMappingURL=chunk-NM7XIBVS.mjs.map
