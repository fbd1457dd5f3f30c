import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  readItemWait,
  readNextStep,
  readWaitContext
} from "./chunk-244VYD4W.mjs";
import {
  isTerminal
} from "./chunk-MH23QIYG.mjs";
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";
import {
  deciderOf
} from "./chunk-F57UOP2X.mjs";
import {
  untrustedCost
} from "./chunk-O4EQ2A5A.mjs";

// src/read/item-view.ts
async function readItemView(store, batch, itemId, o) {
  const it = await store.getItem(batch.id, itemId);
  if (!it) {
    const some = (await store.listItems(batch.id, { limit: 5 })).map((i) => i.id);
    throw new InputError(`batch "${batch.name}" has no item "${itemId}"${some.length ? `; its items include ${some.join(", ")}` : "; it has no items"}`);
  }
  const [runs, decisions, files, verdicts] = await Promise.all([store.runChain(batch.id, it.id), store.decisionsForItem(batch.id, it.id), store.filesForItem(batch.id, it.id), store.verdictsOf(batch.id, it.id)]);
  const byRun = new Map(decisions.map((d) => [d.runId, d]));
  const last = runs.at(-1);
  const next = isTerminal(it.state) || it.state === "held" ? null : await readNextStep(store, batch, o.nowMs, o.hint);
  const wait = it.state === "queued" ? await readItemWait(store, batch, it, await readWaitContext(store, batch, o.nowMs), o.hint) : null;
  return {
    batch: { id: batch.id, name: batch.name },
    item: {
      id: it.id,
      seq: it.seq,
      line: it.line,
      state: it.state,
      question: it.question,
      meta: it.meta,
      expected: it.expected ?? null,
      threadKey: it.threadKey,
      threadId: it.threadId,
      runStatus: it.runStatus,
      text: it.text,
      error: it.error,
      errorCode: it.errorCode,
      holdReason: it.holdReason,
      startedAt: it.startedAt,
      finishedAt: it.finishedAt,
      attempt: it.attempt
    },
    runs: runs.map((r) => ({
      id: r.id,
      step: r.step,
      parentRunId: r.parentRunId,
      status: r.status,
      createdAt: r.createdAt,
      finishedAt: r.finishedAt,
      seconds: r.seconds,
      endedUnwatched: r.unwatched,
      pausedOn: r.requiredAction?.tool ?? null,
      errorCode: r.errorCode,
      error: r.error
    })),
    pauses: runs.filter((r) => r.requiredAction).map((r) => {
      const d = byRun.get(r.id);
      const latest = r === last;
      return {
        runId: r.id,
        tool: r.requiredAction.tool,
        input: r.requiredAction.input,
        untrustedCost: untrustedCost(r.requiredAction.input),
        decision: d ? deciderOf(d) : null,
        waiting: !latest ? null : !d && it.state === "held" ? "person" : d && it.state === "waiting" ? "send" : null
      };
    }),
    next,
    wait,
    files: files.map((f) => ({
      id: f.id,
      name: f.name,
      role: f.role,
      mediaType: f.mediaType,
      status: f.status,
      host: f.host,
      path: f.path,
      bytes: f.bytes,
      sha256: f.sha256,
      error: f.error,
      expiresAt: f.expiresAt
    })),
    verdicts
  };
}

export {
  readItemView
};
//# sourceMappingURL=chunk-MOJWA6AF.mjs.map
