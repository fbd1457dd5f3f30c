import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/web/actions.ts
function libraryActions(store, o = {}) {
  return {
    async answer(batch, itemId, who, reply) {
      const { answerHeldItem } = await import("./answer-VHNLGDIP.mjs");
      return answerHeldItem(store, batch, itemId, reply, who);
    },
    async answerMany(batch, listed, who, reply) {
      const { answerListedPauses } = await import("./answer-bulk-V27I4JMW.mjs");
      return answerListedPauses(store, batch, listed, reply, who);
    },
    async retry(batch, s) {
      const { retryItems, retrySelection } = await import("./retry-5FZL3NGJ.mjs");
      const report = await retryItems(store, batch, retrySelection(s));
      return report.moved.length;
    },
    async cancel(batch) {
      const { cancelBatch } = await import("./cancel-OUC7H332.mjs");
      const connect = o.connect;
      const r = await cancelBatch(store, batch, connect ? { connect: () => connect(batch) } : {});
      return { queued: r.queued, cancelled: r.cancelled.length, left: r.left.length, reason: r.reason };
    }
  };
}

export {
  libraryActions
};
//# sourceMappingURL=chunk-S22SQRXD.mjs.map
