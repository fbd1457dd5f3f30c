import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  appendLacking,
  startRecorder
} from "./chunk-VJWOXAMR.mjs";
import {
  BatchRunner
} from "./chunk-3M5VKKMO.mjs";
import "./chunk-SYF23C3W.mjs";
import "./chunk-TLQTFDDA.mjs";
import "./chunk-HDST666U.mjs";
import "./chunk-VYH6EALL.mjs";
import "./chunk-2RMSLZTD.mjs";
import {
  appendJudgings,
  ensureJudgeBatch,
  judgePolicy
} from "./chunk-VUJC3A3Q.mjs";
import "./chunk-O4I6Z4IJ.mjs";
import "./chunk-UUEOY5IK.mjs";
import "./chunk-HXA3HFZH.mjs";
import "./chunk-6FNU2YDX.mjs";
import "./chunk-LX2MAEXG.mjs";
import {
  systemClock
} from "./chunk-64FYAIQV.mjs";
import "./chunk-7GICCHH3.mjs";
import "./chunk-YHPNXTWT.mjs";
import "./chunk-TNKZ5VT3.mjs";
import "./chunk-B3KHQ7FY.mjs";
import "./chunk-CZMGSLWJ.mjs";
import "./chunk-5GEFFECR.mjs";
import "./chunk-755LHRXT.mjs";
import "./chunk-ADUNF5BB.mjs";
import "./chunk-Q6TQJGNT.mjs";
import "./chunk-244VYD4W.mjs";
import "./chunk-IVI4HKH5.mjs";
import "./chunk-DL5UYYIV.mjs";
import "./chunk-EL7BER4H.mjs";
import {
  TERMINAL_STATES
} from "./chunk-MH23QIYG.mjs";
import "./chunk-4EMWZ36I.mjs";
import "./chunk-M4QEDMWX.mjs";
import "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-F57UOP2X.mjs";
import "./chunk-IVLJ7PFV.mjs";
import "./chunk-O4EQ2A5A.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/score/judge-alongside.ts
async function startJudgeAlongside(o) {
  const { store, parent } = o;
  const clock = o.clock ?? systemClock;
  const specs = o.scorers.filter((s) => s.kind === "agent");
  let judge = await ensureJudgeBatch(store, parent);
  let appended = await appendLacking(store, parent, judge, specs, { rescore: false, round: null });
  judge = await store.findBatch(judge.id) ?? judge;
  const tally = await startRecorder(store, parent.id, judge, clock);
  const progress = () => o.onEvent?.({ type: "judging", batch: judge.name, ...tally.progress });
  progress();
  let answering = true;
  const onEvent = (e) => {
    if (e.type === "item" && TERMINAL_STATES.includes(e.state)) {
      tally.ended(e.id);
      progress();
    } else if (e.type === "warning") o.onEvent?.({ type: "warning", message: `${judge.name}: ${e.message}` });
  };
  const runner = new BatchRunner({
    store,
    client: o.client,
    batch: judge,
    policy: judgePolicy(parent.policy ?? null),
    slots: o.slots,
    slotsFirst: true,
    stayWhile: () => answering,
    wait: o.wait ?? true,
    ...o.leaseMs !== void 0 ? { leaseMs: o.leaseMs } : {},
    ...o.retryLaterMs !== void 0 ? { retryLaterMs: o.retryLaterMs } : {},
    clock,
    onEvent
  });
  const running = runner.run().then(
    (run) => ({ run, error: null }),
    (error) => ({ run: null, error })
  );
  return {
    completed: async (item) => {
      let n = 0;
      for (const spec of specs) n += await appendJudgings(store, judge, spec, [item], null);
      if (n === 0) return;
      appended += n;
      tally.total += n;
      runner.more(n);
      progress();
    },
    stop: () => runner.stop(),
    finish: async (stop) => {
      answering = false;
      if (stop) runner.stop();
      else runner.wake();
      const r = await running;
      await tally.settle();
      if (r.error !== null) throw r.error;
      judge = await store.findBatch(judge.id) ?? judge;
      return { judge, appended, recorded: tally.recorded, run: r.run, held: (await store.itemCounts(judge.id)).held };
    }
  };
}
export {
  startJudgeAlongside
};
//# sourceMappingURL=judge-alongside-FC6RASFL.mjs.map
