import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  formatModelStatus,
  pickModelsRenderer
} from "./chunk-EUUGB2GO.mjs";
import {
  runModelSession
} from "./chunk-ADLXR26K.mjs";
import {
  notifyCommandOf,
  notifyFromFlags
} from "./chunk-NYF3W5K3.mjs";
import "./chunk-YODIRQJW.mjs";
import {
  leaseMsFromEnv
} from "./chunk-LZGVM7C3.mjs";
import "./chunk-FEF6I5IO.mjs";
import {
  choiceFor,
  openService,
  resolveService
} from "./chunk-HT6CBTQB.mjs";
import {
  chooseService
} from "./chunk-GOFJ5TZN.mjs";
import "./chunk-CHVFPQGZ.mjs";
import "./chunk-TLQTFDDA.mjs";
import "./chunk-HDST666U.mjs";
import "./chunk-VYH6EALL.mjs";
import "./chunk-2RMSLZTD.mjs";
import "./chunk-O4I6Z4IJ.mjs";
import "./chunk-5GMYQBJP.mjs";
import "./chunk-UQ4YZVT5.mjs";
import "./chunk-QFB6ZTTJ.mjs";
import "./chunk-UUEOY5IK.mjs";
import "./chunk-HXA3HFZH.mjs";
import "./chunk-UM7NX3RY.mjs";
import {
  openStore
} from "./chunk-6FNU2YDX.mjs";
import "./chunk-LX2MAEXG.mjs";
import "./chunk-64FYAIQV.mjs";
import {
  checkDbPath,
  checkOutputPath,
  removeDatabase
} from "./chunk-KJQBQQMI.mjs";
import {
  userMessage
} from "./chunk-ELXTCS3C.mjs";
import {
  STOP_SIGNALS
} from "./chunk-RJ3MMPSI.mjs";
import "./chunk-7GICCHH3.mjs";
import "./chunk-YHPNXTWT.mjs";
import "./chunk-TNKZ5VT3.mjs";
import {
  DEFAULT_DOWNLOAD_CONCURRENCY
} from "./chunk-B3KHQ7FY.mjs";
import {
  exitCodeForRun
} from "./chunk-RVC6YWNH.mjs";
import "./chunk-CZMGSLWJ.mjs";
import {
  wholeNumber
} from "./chunk-KZVLWJOD.mjs";
import {
  notifyFlagsOf,
  sendOptionsFromEnv
} from "./chunk-T3XGDCMF.mjs";
import "./chunk-KD7OSFDT.mjs";
import "./chunk-5GEFFECR.mjs";
import {
  maskLocation
} from "./chunk-755LHRXT.mjs";
import "./chunk-UZQXFT2K.mjs";
import "./chunk-6ELOTNCY.mjs";
import "./chunk-UPSBM6NF.mjs";
import "./chunk-ADUNF5BB.mjs";
import "./chunk-Q6TQJGNT.mjs";
import "./chunk-IVI4HKH5.mjs";
import "./chunk-DL5UYYIV.mjs";
import "./chunk-EL7BER4H.mjs";
import "./chunk-MH23QIYG.mjs";
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";
import {
  commandHint
} from "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-IVLJ7PFV.mjs";
import "./chunk-O4EQ2A5A.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/cli/commands/models-batch.ts
import { resolve } from "node:path";
async function modelsBatchHandler(a, io) {
  const concurrency = wholeNumber("concurrency", a.concurrency ?? 8, 1, 1e4);
  const choice = choiceFor(chooseService({ sim: a.sim ?? false, baseUrl: a.baseUrl, envBaseUrl: io.env.RESQ_BASE_URL }));
  resolveService(choice, io.env);
  if (a.batch === "") throw new InputError("--batch: give a name (or leave it out for the default)");
  if (a.output !== void 0) checkOutputPath(a.output);
  const { exists: dbExisted } = checkDbPath(a.db);
  const out = resolve(a.out ?? "out");
  const notify = notifyFromFlags(notifyFlagsOf(a), io.env);
  const settings = {
    concurrency,
    follow: "poll",
    download: { enabled: a.download, concurrency: DEFAULT_DOWNLOAD_CONCURRENCY, out },
    pipelineFile: null,
    service: choice.sim ? "sim" : "url",
    ...notify ? { notify } : {}
  };
  const store = await openStore(a.db, { onWait: (m) => io.stderr.write(`${m}
`) });
  let recorded = false;
  try {
    const renderer = pickModelsRenderer(a.json, io);
    const stop = new AbortController();
    let stoppedBy = null;
    const offStop = io.onStop((signal) => {
      if (stoppedBy) return io.exitNow(STOP_SIGNALS[signal]);
      stoppedBy = signal;
      renderer.note(`stopping (${signal}): nothing new is sent; jobs in flight go on at the service (run the same command again to pick them up)`);
      stop.abort();
    });
    let r;
    try {
      r = await runModelSession({
        store,
        service: () => openService(choice, { connections: Math.max(128, concurrency * 2 + 16), env: io.env, dbPath: a.db }),
        modelId: a.id,
        file: a.file,
        name: a.batch ?? null,
        settings,
        mode: a.mode ?? null,
        resubmitUnknown: a.resubmitUnknown,
        output: a.output ?? null,
        signal: stop.signal,
        notify: sendOptionsFromEnv(io.env, leaseMsFromEnv(io.env), notifyCommandOf(a), a.db),
        onOpened: (batch, resumed) => {
          recorded = true;
          if (resumed && !a.json) renderer.note(`resuming batch ${batch.name} (${batch.totalItems} rows)`);
        },
        onEvent: (e) => renderer.onEvent(e)
      });
    } finally {
      offStop();
      renderer.stop();
    }
    const { run: result, status } = r;
    if (status) {
      if (a.json) io.stdout.write(`${JSON.stringify({ type: "summary", ...status, db: maskLocation(a.db), out, output: a.output ?? null })}
`);
      else io.stdout.write(`${formatModelStatus(status, { db: a.db, out: a.download ? out : null, output: a.output ?? null })}
`);
    }
    if (!a.json) {
      if (result.fatal) io.stderr.write(`resq: stopped: ${userMessage(result.fatal)}
`);
      else if (result.interrupted)
        io.stderr.write(`interrupted: run the same command again to continue (${commandHint(["resq", "models", "batch", a.id, a.file], { db: a.db, sim: a.sim })})
`);
    }
    return result.interrupted && stoppedBy ? STOP_SIGNALS[stoppedBy] : exitCodeForRun({ ...result, cancelled: false });
  } finally {
    await store.close();
    if (!recorded && !dbExisted) removeDatabase(a.db);
  }
}
export {
  modelsBatchHandler
};
//# sourceMappingURL=models-batch-LIPFG46R.mjs.map
