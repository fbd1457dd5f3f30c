import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  sessionConnector
} from "./chunk-RZMXQJVK.mjs";
import "./chunk-I7JJSHCE.mjs";
import "./chunk-KFXNTISD.mjs";
import "./chunk-H2ILHW7V.mjs";
import {
  leaseMsFromEnv
} from "./chunk-LZGVM7C3.mjs";
import {
  judgingToGo,
  pickRenderer
} from "./chunk-FEF6I5IO.mjs";
import "./chunk-HT6CBTQB.mjs";
import "./chunk-GOFJ5TZN.mjs";
import "./chunk-B54UIUN7.mjs";
import "./chunk-CHVFPQGZ.mjs";
import "./chunk-VYH6EALL.mjs";
import "./chunk-2RMSLZTD.mjs";
import "./chunk-QFB6ZTTJ.mjs";
import "./chunk-2A6FAXNZ.mjs";
import "./chunk-UUEOY5IK.mjs";
import "./chunk-6FNU2YDX.mjs";
import "./chunk-LX2MAEXG.mjs";
import "./chunk-64FYAIQV.mjs";
import "./chunk-ELXTCS3C.mjs";
import "./chunk-RJ3MMPSI.mjs";
import "./chunk-7GICCHH3.mjs";
import "./chunk-YHPNXTWT.mjs";
import "./chunk-TNKZ5VT3.mjs";
import "./chunk-RVC6YWNH.mjs";
import "./chunk-CZMGSLWJ.mjs";
import "./chunk-KD7OSFDT.mjs";
import "./chunk-5GEFFECR.mjs";
import "./chunk-755LHRXT.mjs";
import "./chunk-UPSBM6NF.mjs";
import "./chunk-244VYD4W.mjs";
import "./chunk-IVI4HKH5.mjs";
import "./chunk-DL5UYYIV.mjs";
import "./chunk-EL7BER4H.mjs";
import "./chunk-MH23QIYG.mjs";
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

// src/cli/judge-session.ts
function judgingProgress(name) {
  let started = false;
  return {
    barFormat: "judgings",
    read: (e) => {
      if (started) return { kind: "bar", done: e.done, total: e.total, fields: {} };
      started = true;
      return { kind: "start", line: judgingToGo({ ...e, batch: name }), aboveBar: true, total: e.total, done: e.done, fields: {} };
    }
  };
}
async function judgeOnCli(o) {
  const { judgeByAgent } = await import("./agent-judging-VI6OYOGV.mjs");
  const progress = pickRenderer(false, o.io, judgingProgress(`${o.batch.name}.judge`));
  const leaseMs = leaseMsFromEnv(o.io.env);
  try {
    return await judgeByAgent({
      store: o.store,
      parent: o.batch,
      scorers: o.scorers,
      rescore: o.rescore,
      service: sessionConnector(o.service, o.io.env, o.dbPath, (line) => progress.note(line)),
      signal: o.signal,
      hint: { db: o.dbPath },
      ...leaseMs !== void 0 ? { leaseMs } : {},
      onEvent: (e) => {
        if (e.type === "notice" || e.type === "warning") progress.note(e.message);
      },
      onProgress: (p) => progress.onEvent(p)
    });
  } finally {
    progress.stop();
  }
}
export {
  judgeOnCli
};
//# sourceMappingURL=judge-session-U75ID6MH.mjs.map
