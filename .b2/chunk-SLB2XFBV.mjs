import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  wholeNumber
} from "./chunk-KZVLWJOD.mjs";
import {
  notifyFlagsOf,
  notifyOptions,
  sendOptionsFromEnv
} from "./chunk-T3XGDCMF.mjs";

// src/cli/commands/resume.ts
import { resolve } from "node:path";
function resumeCommand(y, ctx) {
  return y.command(
    "resume [batch]",
    "continue a batch, or join it from another process or machine (the newest when no name is given)",
    (a) => notifyOptions(a).positional("batch", { type: "string", describe: "batch name or id" }).option("base-url", { type: "string", describe: "service base URL ending in /api/v1 (default: the batch's, else $RESQ_BASE_URL)" }).option("sim", { type: "boolean", describe: "use the built-in simulator" }).option("concurrency", { type: "number", describe: "most runs in flight over all workers (default: the batch's)" }).option("policy", { type: "string", describe: "replace the batch's auto-answer policy" }).option("score", { type: "string", describe: "scorers file (YAML): judge each answer as it completes (replaces the batch's)" }).option("out", { type: "string", describe: "folder for this worker's downloads (default: the batch's)" }).option("limit", { type: "number", describe: "submit only the next N queued items now" }).option("wait", { type: "boolean", default: true, describe: "when nothing is left to claim, wait for other workers (--no-wait: leave)" }),
    async (argv) => {
      ctx.code = await resumeHandler(argv, ctx.io);
    }
  );
}
async function resumeHandler(a, io) {
  const [{ driveSession }, { openBatch }] = await Promise.all([import("./attach-7BODV74C.mjs"), import("./open-batch-CUDFMHLW.mjs")]);
  wholeNumber("concurrency", a.concurrency, 1, 1e4);
  wholeNumber("limit", a.limit, 1, Number.MAX_SAFE_INTEGER);
  const policy = a.policy ? await (await import("./policy-file-JJNDR3R6.mjs")).loadPolicyFile(a.policy) : void 0;
  const scorers = a.score !== void 0 ? await (await import("./scorers-file-AC2XVDT7.mjs")).parseScorersFile(a.score) : null;
  const { leaseMsFromEnv } = await import("./lease-env-TNKAKIEN.mjs");
  const leaseMs = leaseMsFromEnv(io.env);
  const notifySettings = await import("./notify-settings-XXFDDL4P.mjs");
  notifySettings.checkNotifyFlags(notifyFlagsOf(a), io.env);
  const { batchSentNothing: sentNothing } = await import("./sent-nothing-LD4W4E7Y.mjs");
  const { store, batch } = await openBatch(a.db, a.batch, "runs", { onWait: (m) => io.stderr.write(`${m}
`), ...leaseMs !== void 0 ? { leaseMs } : {} });
  try {
    const notify = notifySettings.notifyFromFlags(notifyFlagsOf(a), io.env, batch.settings.notify);
    const overrides = {
      ...notify ? { notify } : {},
      ...a.concurrency !== void 0 ? { concurrency: a.concurrency } : {},
      ...policy !== void 0 ? { policy } : {},
      ...scorers ? { scorers } : {},
      ...a.baseUrl !== void 0 ? { baseUrl: a.baseUrl } : {}
    };
    const service = { sim: a.sim, baseUrl: a.baseUrl, simStateMustExist: batch.settings.service === "sim" && !await sentNothing(store, batch.id) };
    return await driveSession({
      store,
      dbPath: a.db,
      json: a.json,
      io,
      service,
      session: {
        batch,
        overrides,
        ...a.out !== void 0 ? { out: resolve(a.out) } : {},
        ...a.limit !== void 0 ? { limit: a.limit } : {},
        wait: a.wait,
        notify: sendOptionsFromEnv(io.env, leaseMs, notifySettings.notifyCommandOf(a), a.db),
        scorers
      }
    });
  } finally {
    await store.close();
  }
}

export {
  resumeCommand,
  resumeHandler
};
//# sourceMappingURL=chunk-SLB2XFBV.mjs.map
