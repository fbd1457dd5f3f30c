import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import "./chunk-5OSXGZ5J.mjs";

// src/runner/sent-nothing.ts
var PAGE = 1e3;
async function batchSentNothing(store, batchId) {
  const counts = await store.itemCounts(batchId);
  if (Object.entries(counts).some(([state, n]) => n > 0 && state !== "queued" && state !== "cancelled")) return false;
  for (let afterSeq = -1; ; ) {
    const page = await store.aggregates(batchId, afterSeq, PAGE, ["queued", "cancelled"]);
    if (page.some((a) => a.runIds.length > 0 || a.item.runId !== null || a.item.threadId !== null)) return false;
    if (page.length < PAGE) return true;
    afterSeq = page[page.length - 1].item.seq;
  }
}
export {
  batchSentNothing
};
//# sourceMappingURL=sent-nothing-LD4W4E7Y.mjs.map
