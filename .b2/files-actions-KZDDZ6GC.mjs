import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  formatBytes
} from "./chunk-NOQYOQA2.mjs";
import {
  filesStatus,
  formatDuration,
  pullFiles,
  verifyFiles
} from "./chunk-N7BTQGOS.mjs";
import "./chunk-BBCHWSG3.mjs";
import {
  choiceFor,
  openService
} from "./chunk-HT6CBTQB.mjs";
import {
  chooseService
} from "./chunk-GOFJ5TZN.mjs";
import "./chunk-HDST666U.mjs";
import "./chunk-VYH6EALL.mjs";
import "./chunk-2RMSLZTD.mjs";
import {
  openBatches
} from "./chunk-NM7XIBVS.mjs";
import "./chunk-O4I6Z4IJ.mjs";
import "./chunk-UUEOY5IK.mjs";
import "./chunk-HXA3HFZH.mjs";
import "./chunk-6FNU2YDX.mjs";
import "./chunk-LX2MAEXG.mjs";
import {
  systemClock
} from "./chunk-64FYAIQV.mjs";
import "./chunk-KJQBQQMI.mjs";
import {
  STOP_SIGNALS
} from "./chunk-RJ3MMPSI.mjs";
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
  wholeNumber
} from "./chunk-KZVLWJOD.mjs";
import {
  printable
} from "./chunk-5GEFFECR.mjs";
import "./chunk-755LHRXT.mjs";
import "./chunk-Q6TQJGNT.mjs";
import "./chunk-IVI4HKH5.mjs";
import "./chunk-MH23QIYG.mjs";
import {
  ConfigError
} from "./chunk-4EMWZ36I.mjs";
import {
  commandHint
} from "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/cli/commands/files-actions.ts
function writer(io) {
  return (line) => io.stdout.write(`${line}
`);
}
function pullHint(batches, db, one) {
  const sim = batches.some((b) => b.settings.service === "sim");
  const name = one && batches.length === 1 ? [batches[0].name] : [];
  return commandHint(["resq", "files", "pull", ...name], { db, sim });
}
function renderStatus(out, s, now, pull) {
  const c = s.counts;
  const scope = s.batches.length === 1 ? `batch ${s.batches[0]}` : `${s.batches.length} batches`;
  out(`files of ${scope}: ${s.total} \u2014 ${c.downloaded} downloaded, ${c.pending} pending, ${c.failed} failed, ${c.expired} expired, ${c.missing} missing`);
  out(`on disk: ${formatBytes(s.bytesOnDisk)}`);
  if (s.holders.length > 1 || s.holders.length === 1 && s.holders[0].host !== s.thisHost) {
    out("held by:");
    for (const h of s.holders) {
      const folders = h.folders.slice(0, 3).map(printable).join(", ") + (h.folders.length > 3 ? `, \u2026 (${h.folders.length} folders)` : "");
      out(`  ${printable(h.host)}${h.host === s.thisHost ? " (this machine)" : ""}: ${h.files} ${h.files === 1 ? "file" : "files"}, ${formatBytes(h.bytes)} in ${folders}`);
    }
  }
  if (s.notHere > 0)
    out(`this machine (${printable(s.thisHost)}) lacks ${s.notHere} downloaded ${s.notHere === 1 ? "file" : "files"} other machines hold: ${pull} --out DIR fetches them into DIR`);
  if (s.soonestExpiry) {
    const left = Date.parse(s.soonestExpiry) - now.getTime();
    out(`soonest expiry among files not on disk: ${s.soonestExpiry} (${left > 0 ? `in ${formatDuration(left)}` : `${formatDuration(left)} ago`})`);
  }
  for (const w of s.warnings) out(`warning: ${w.message}`);
}
function renderPull(out, r, pull) {
  const scope = r.batches.length === 1 ? `batch ${r.batches[0]}` : `${r.batches.length} batches`;
  const repaired = r.repaired.length ? `, ${r.repaired.length} fetched again (gone or changed on disk)` : "";
  const others = Object.entries(r.fromOtherHosts);
  const fetched = others.length ? `, ${others.reduce((n, [, k]) => n + k, 0)} of them held only by other machines (${others.map(([h, n]) => `${printable(h)}: ${n}`).join(", ")})` : "";
  out(`files of ${scope}: ${r.downloaded} downloaded (${formatBytes(r.bytes)})${fetched}, ${r.skipped} already on this machine${repaired}`);
  if (r.interrupted) out(`interrupted: run ${pull} again to continue`);
  if (r.notOnDisk.length === 0) return;
  const by = (s) => r.notOnDisk.filter((f) => f.status === s).length;
  out(`not on disk: ${r.notOnDisk.length} (${by("expired")} expired, ${by("missing")} missing, ${by("failed")} failed, ${by("pending")} pending)`);
  for (const f of r.notOnDisk.slice(0, 30))
    out(`  ${f.status.padEnd(8)} ${f.batch} / ${f.itemId} / ${f.name ?? f.fileId}: ${f.reason ?? "not fetched yet"}`);
  if (r.notOnDisk.length > 30) out(`  \u2026 and ${r.notOnDisk.length - 30} more (${pull} --json)`);
}
function renderVerify(out, r, pull) {
  const gone = r.problems.filter((p) => p.state === "gone").length;
  out(`verified ${r.checked} downloaded files: ${r.ok} intact (${formatBytes(r.bytes)}), ${r.problems.length - gone} changed, ${gone} gone`);
  for (const p of r.problems) out(`  ${p.state.padEnd(8)} ${p.batch} / ${p.itemId} / ${p.path ?? p.fileId}: ${p.reason}`);
  if (r.problems.length) out(`${pull} fetches them again`);
}
async function serviceFor(a, batches, io) {
  const sims = batches.filter((b) => b.settings.service === "sim").length;
  if (a.sim === void 0 && !a.baseUrl && sims > 0 && sims < batches.length)
    throw new ConfigError(
      "some of these batches ran on the built-in simulator and some on a service: pull them one at a time, or pass --sim (the simulator state kept beside the database) or --base-url"
    );
  const choice = chooseService({ sim: a.sim, baseUrl: a.baseUrl, envBaseUrl: io.env.RESQ_BASE_URL, batches });
  return openService(choiceFor(choice), { env: io.env, dbPath: a.db, ...choice.sim && a.sim === void 0 ? { simStateMustExist: true } : {} });
}
async function filesPullHandler(a, io) {
  const out = writer(io);
  wholeNumber("concurrency", a.concurrency, 1, 256);
  const { store, batches } = await openBatches(a.db, a.batch);
  try {
    const service = await serviceFor(a, batches, io);
    const abort = new AbortController();
    let stoppedBy = "SIGINT";
    const offStop = io.onStop((signal) => {
      stoppedBy = signal;
      abort.abort(new Error("interrupted"));
    });
    try {
      const report = await pullFiles({
        store,
        client: service.client,
        batches,
        outDir: a.out ?? null,
        concurrency: a.concurrency ?? batches[0]?.settings.download?.concurrency ?? DEFAULT_DOWNLOAD_CONCURRENCY,
        signal: abort.signal,
        onEvent: a.json ? (e) => e.type !== "file-start" && out(JSON.stringify(e)) : void 0
      });
      if (a.json) out(JSON.stringify({ type: "files-pull", ...report }));
      else renderPull(out, report, pullHint(batches, a.db, !!a.batch));
      return report.interrupted ? STOP_SIGNALS[stoppedBy] : report.notOnDisk.length > 0 ? EXIT.failed : EXIT.ok;
    } finally {
      offStop();
      await service.close();
    }
  } finally {
    await store.close();
  }
}
async function filesStatusHandler(a, io) {
  const out = writer(io);
  const { store, batches } = await openBatches(a.db, a.batch);
  try {
    const now = new Date(systemClock.now());
    const s = await filesStatus(store, batches.length === 1 && a.batch ? batches[0] : null, now, void 0, void 0, { db: a.db });
    if (a.json) out(JSON.stringify({ type: "files-status", ...s }));
    else renderStatus(out, s, now, pullHint(batches, a.db, !!a.batch));
    return EXIT.ok;
  } finally {
    await store.close();
  }
}
async function filesVerifyHandler(a, io) {
  const out = writer(io);
  const { store, batches } = await openBatches(a.db, a.batch);
  try {
    const r = await verifyFiles(store, a.batch ? batches[0] : null);
    if (a.json) out(JSON.stringify({ type: "files-verify", ...r }));
    else renderVerify(out, r, pullHint(batches, a.db, !!a.batch));
    return r.problems.length > 0 ? EXIT.failed : EXIT.ok;
  } finally {
    await store.close();
  }
}
export {
  filesPullHandler,
  filesStatusHandler,
  filesVerifyHandler,
  pullHint
};
//# sourceMappingURL=files-actions-KZDDZ6GC.mjs.map
