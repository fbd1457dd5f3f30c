import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  runBatchSession
} from "./chunk-I7JJSHCE.mjs";
import "./chunk-CHVFPQGZ.mjs";
import {
  appendLacking,
  startRecorder
} from "./chunk-VJWOXAMR.mjs";
import "./chunk-VYH6EALL.mjs";
import {
  ensureJudgeBatch,
  judgePolicy
} from "./chunk-VUJC3A3Q.mjs";
import "./chunk-O4I6Z4IJ.mjs";
import "./chunk-QFB6ZTTJ.mjs";
import "./chunk-2A6FAXNZ.mjs";
import "./chunk-UUEOY5IK.mjs";
import "./chunk-HXA3HFZH.mjs";
import "./chunk-6FNU2YDX.mjs";
import "./chunk-LX2MAEXG.mjs";
import {
  systemClock
} from "./chunk-64FYAIQV.mjs";
import "./chunk-B3KHQ7FY.mjs";
import "./chunk-5GEFFECR.mjs";
import "./chunk-755LHRXT.mjs";
import "./chunk-UPSBM6NF.mjs";
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

// src/score/agent-judging.ts
async function judgeByAgent(o) {
  const { store, parent } = o;
  const clock = o.clock ?? systemClock;
  let judge = await ensureJudgeBatch(store, parent);
  const round = o.rescore ? `r${clock.now()}` : null;
  const appended = await appendLacking(store, parent, judge, o.scorers, { rescore: o.rescore ?? false, round, ...o.signal ? { signal: o.signal } : {} });
  judge = await store.findBatch(judge.id) ?? judge;
  const tally = await startRecorder(store, parent.id, judge, clock);
  o.onProgress?.(tally.progress);
  const policy = judgePolicy(parent.policy ?? null);
  const session = await runBatchSession({
    store,
    batch: judge,
    overrides: { policy },
    service: o.service,
    ...o.signal ? { signal: o.signal } : {},
    ...o.leaseMs !== void 0 ? { leaseMs: o.leaseMs } : {},
    ...o.hint ? { hint: o.hint } : {},
    onEvent: (e) => {
      if (e.type === "item" && TERMINAL_STATES.includes(e.state)) {
        tally.ended(e.id);
        o.onProgress?.(tally.progress);
      }
      if (e.type === "notice" && e.message.startsWith("policy:")) return;
      o.onEvent?.(e);
    }
  });
  await tally.settle();
  return { judge: session.batch, appended, recorded: tally.recorded, run: session.run, held: session.status.counts.held };
}
export {
  judgeByAgent
};
//# sourceMappingURL=agent-judging-VI6OYOGV.mjs.map
