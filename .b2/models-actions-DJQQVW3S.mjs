import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  formatDescription,
  formatTable,
  prepareInputs,
  runOne
} from "./chunk-BLDQG6G7.mjs";
import {
  formatModelStatus
} from "./chunk-EUUGB2GO.mjs";
import {
  modelBatchStatus,
  modelResultRows,
  writeModelResults
} from "./chunk-ADLXR26K.mjs";
import "./chunk-FEF6I5IO.mjs";
import {
  choiceFor,
  openService
} from "./chunk-HT6CBTQB.mjs";
import {
  chooseService
} from "./chunk-GOFJ5TZN.mjs";
import "./chunk-CHVFPQGZ.mjs";
import "./chunk-TLQTFDDA.mjs";
import {
  isRunFailure
} from "./chunk-HDST666U.mjs";
import "./chunk-VYH6EALL.mjs";
import "./chunk-2RMSLZTD.mjs";
import {
  openBatch
} from "./chunk-NM7XIBVS.mjs";
import "./chunk-O4I6Z4IJ.mjs";
import "./chunk-5GMYQBJP.mjs";
import "./chunk-UQ4YZVT5.mjs";
import "./chunk-QFB6ZTTJ.mjs";
import "./chunk-UUEOY5IK.mjs";
import "./chunk-HXA3HFZH.mjs";
import "./chunk-UM7NX3RY.mjs";
import "./chunk-6FNU2YDX.mjs";
import "./chunk-LX2MAEXG.mjs";
import {
  isoNow
} from "./chunk-64FYAIQV.mjs";
import {
  checkDbPath,
  checkOutputPath
} from "./chunk-KJQBQQMI.mjs";
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
  EXIT
} from "./chunk-RVC6YWNH.mjs";
import "./chunk-CZMGSLWJ.mjs";
import {
  printable
} from "./chunk-5GEFFECR.mjs";
import "./chunk-755LHRXT.mjs";
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

// src/cli/commands/models-actions.ts
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { once } from "node:events";
function choiceOf(a, env) {
  return choiceFor(chooseService({ sim: a.sim ?? false, baseUrl: a.baseUrl, envBaseUrl: env.RESQ_BASE_URL }));
}
async function modelsDescribeHandler(a, io) {
  const service = await openService(choiceOf(a, io.env), { env: io.env, dbPath: a.db });
  try {
    const d = await service.client.describeModel(a.id);
    io.stdout.write(a.json ? `${JSON.stringify(d)}
` : `${formatDescription(d, a.id)}
`);
    return EXIT.ok;
  } finally {
    await service.close();
  }
}
function showValue(v) {
  if (v && typeof v === "object" && !Array.isArray(v) && typeof v.url === "string") {
    const f = v;
    return `file ${f.name ?? f.id ?? ""} ${f.url}`.replace(/\s+/g, " ");
  }
  return typeof v === "string" ? v : JSON.stringify(v);
}
function formatRun(run, httpStatus) {
  const lines = [`model run ${run.id}: ${run.status} (HTTP ${httpStatus}${run.credits !== null ? `, credits ${run.credits}` : ""})`];
  if (run.error) lines.push(`error: ${printable(run.error)}`);
  if (run.outputs) {
    lines.push("outputs:");
    const rows = Object.entries(run.outputs).map(([k, v]) => [k, showValue(v)]);
    lines.push(...formatTable(["name", "value"], rows).split("\n").map((l) => `  ${l}`));
  }
  return lines.join("\n");
}
async function modelsRunHandler(a, io) {
  const service = await openService(choiceOf(a, io.env), { env: io.env, dbPath: a.db });
  const stop = new AbortController();
  let admitted = null;
  let stoppedBy = "SIGINT";
  const offStop = io.onStop((signal) => {
    stoppedBy = signal;
    stop.abort();
  });
  const keepAlive = setInterval(() => {
  }, 6e4);
  try {
    const d = await service.client.describeModel(a.id);
    const inputs = prepareInputs(d, a.id, a.inputs, a.input ?? []);
    if (a.record) return await recordedRun(a, io, service, d, inputs, stop.signal);
    const r = await runOne({
      client: service.client,
      modelId: a.id,
      inputs,
      mode: a.mode ?? null,
      signal: stop.signal,
      onAdmitted: (run, status) => {
        admitted = run;
        if (status === 202 && !a.json) io.stderr.write(`model run ${run.id} started; reading it every few seconds\u2026
`);
      }
    });
    io.stdout.write(a.json ? `${JSON.stringify(r.run)}
` : `${formatRun(r.run, r.httpStatus)}
`);
    return isRunFailure(r.run.status) ? EXIT.failed : EXIT.ok;
  } catch (err) {
    const run = admitted;
    if (stop.signal.aborted && run) {
      io.stderr.write(`interrupted: model run ${run.id} goes on at the service${run.poll_url ? ` (${run.poll_url})` : ""}
`);
      return STOP_SIGNALS[stoppedBy];
    }
    throw err;
  } finally {
    clearInterval(keepAlive);
    offStop();
    await service.close();
  }
}
async function recordedRun(a, io, service, description, inputs, signal) {
  const [{ openStore, maskLocation }, { Downloader }, { ModelBatchRunner }] = await Promise.all([
    import("./open-D4LHEQXY.mjs"),
    import("./files-EELZJ42A.mjs"),
    import("./models-IHKVTOBI.mjs")
  ]);
  checkDbPath(a.db);
  const store = await openStore(a.db);
  try {
    const out = resolve(a.out ?? "out");
    const id = randomUUID();
    const name = `${a.id}-run-${isoNow().replace(/[:.]/g, "-")}`;
    await store.loadModelBatch(
      {
        id,
        name,
        kind: "models",
        sourcePath: "(resq models run)",
        sourceSha256: "",
        baseUrl: service.kind === "sim" ? null : service.baseUrl,
        settings: { concurrency: 1, follow: "poll", download: { enabled: true, concurrency: DEFAULT_DOWNLOAD_CONCURRENCY, out }, pipelineFile: null, service: service.kind === "sim" ? "sim" : "url" },
        policy: null
      },
      { modelId: a.id, mode: a.mode ?? null, description },
      [{ id: "1", line: 0, inputs, meta: {} }]
    );
    const batch = await store.findBatch(id);
    const downloader = new Downloader({ store, client: service.client, outDir: out, concurrency: DEFAULT_DOWNLOAD_CONCURRENCY });
    const runner = new ModelBatchRunner({ store, client: service.client, batch, concurrency: 1, onFiles: () => downloader.kick(batch) });
    signal.addEventListener("abort", () => {
      runner.stop();
      downloader.stop();
    });
    const result = await runner.run();
    await downloader.drain();
    const rows = [];
    for await (const row2 of modelResultRows(store, batch)) rows.push(row2);
    const row = rows[0];
    if (a.json) io.stdout.write(`${JSON.stringify({ ...row, batch: name, db: maskLocation(a.db) })}
`);
    else {
      const lines = [`model run ${row.model_run_id ?? "(none)"}: ${row.status}${row.credits !== null ? ` (credits ${row.credits})` : ""}`];
      if (row.error) lines.push(`error: ${printable(row.error)}`);
      if (row.outputs) lines.push("outputs:", ...formatTable(["name", "value"], Object.entries(row.outputs).map(([k, v]) => [k, showValue(v)])).split("\n").map((l) => `  ${l}`));
      for (const f of row.files) lines.push(`file ${f.name ?? f.id}: ${f.status}${f.path ? ` ${f.path}` : ""}`);
      lines.push(`recorded as batch ${name} in ${maskLocation(a.db)} (${commandHint(["resq", "models", "status", name], { db: a.db })})`);
      io.stdout.write(`${lines.join("\n")}
`);
    }
    if (result.fatal) throw result.fatal;
    if (result.interrupted) return EXIT.interrupted;
    return row.status === "succeeded" || row.status === "completed" ? EXIT.ok : EXIT.failed;
  } finally {
    await store.close();
  }
}
async function openModelsBatch(db, name) {
  const { store, batch } = await openBatch(db, name, "models");
  const status = await modelBatchStatus(store, batch);
  if (!status) {
    await store.close();
    throw new InputError(`batch "${batch.name}" is a batch of agent runs: use resq status`);
  }
  return { store, batch, status };
}
async function modelsStatusHandler(a, io) {
  const { store, batch, status } = await openModelsBatch(a.db, a.batch);
  try {
    io.stdout.write(
      a.json ? `${JSON.stringify(status)}
` : `${formatModelStatus(status, { db: a.db, out: batch.settings.download.enabled ? batch.settings.download.out : null })}
`
    );
    return EXIT.ok;
  } finally {
    await store.close();
  }
}
async function modelsExportHandler(a, io) {
  if (a.output !== void 0) checkOutputPath(a.output);
  const { store, batch } = await openModelsBatch(a.db, a.batch);
  try {
    if (a.output) await writeModelResults(store, batch, a.output);
    else for await (const row of modelResultRows(store, batch)) if (!io.stdout.write(`${JSON.stringify(row)}
`)) await once(io.stdout, "drain");
    return EXIT.ok;
  } finally {
    await store.close();
  }
}
export {
  modelsDescribeHandler,
  modelsExportHandler,
  modelsRunHandler,
  modelsStatusHandler
};
//# sourceMappingURL=models-actions-DJQQVW3S.mjs.map
