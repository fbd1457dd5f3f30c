import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  systemClock
} from "./chunk-64FYAIQV.mjs";
import {
  CancelUnsupportedError
} from "./chunk-CZMGSLWJ.mjs";
import {
  ACTIVE_STATES
} from "./chunk-MH23QIYG.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/runner/operations/cancel.ts
function isOrphan(it, nowMs) {
  return it.owner === null || (it.leaseUntil ?? 0) < nowMs;
}
async function cancelBatch(store, batch, o = {}) {
  const clock = o.clock ?? systemClock;
  const now = () => clock.now();
  const queued = await store.cancelBatch(batch.id);
  const report = { batch: batch.name, queued, cancelled: [], left: [], reason: null };
  const inFlight = await store.listItems(batch.id, { states: ACTIVE_STATES });
  const withRun = inFlight.filter((it) => it.state === "running" && it.runId);
  if (withRun.length > 0) {
    if (!o.connect) {
      report.reason = "no service to cancel them at";
      report.left.push(...withRun.map((it) => it.runId));
    } else {
      const service = await o.connect();
      try {
        const route = o.route ?? batch.settings.cancelRoute ?? void 0;
        for (const it of withRun) {
          if (report.reason) {
            report.left.push(it.runId);
            continue;
          }
          try {
            await service.client.cancelRun(it.runId, route ? { route } : {});
            report.cancelled.push(it.runId);
            if (isOrphan(it, now())) await store.markCancelled(batch.id, it.id);
          } catch (e) {
            if (!(e instanceof CancelUnsupportedError)) throw e;
            report.reason = e.message;
            report.left.push(it.runId);
          }
        }
      } finally {
        await service.close();
      }
    }
  }
  for (const it of inFlight) if (!(it.state === "running" && it.runId) && isOrphan(it, now())) await store.markCancelled(batch.id, it.id);
  return report;
}
export {
  cancelBatch
};
//# sourceMappingURL=cancel-OUC7H332.mjs.map
