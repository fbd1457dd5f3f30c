import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  runBatchSession
} from "./chunk-I7JJSHCE.mjs";
import {
  formatStatus
} from "./chunk-KFXNTISD.mjs";
import {
  listUnknownFinals
} from "./chunk-H2ILHW7V.mjs";
import {
  leaseMsFromEnv
} from "./chunk-LZGVM7C3.mjs";
import {
  agentProgress,
  pickRenderer
} from "./chunk-FEF6I5IO.mjs";
import {
  choiceFor,
  openService
} from "./chunk-HT6CBTQB.mjs";
import {
  chooseService,
  overrideNote
} from "./chunk-GOFJ5TZN.mjs";
import {
  userMessage
} from "./chunk-ELXTCS3C.mjs";
import {
  STOP_SIGNALS
} from "./chunk-RJ3MMPSI.mjs";
import {
  EXIT,
  exitCodeForRun
} from "./chunk-RVC6YWNH.mjs";
import {
  maskLocation
} from "./chunk-755LHRXT.mjs";
import {
  commandHint
} from "./chunk-BXVQVF7L.mjs";
import {
  escapeControls
} from "./chunk-E7YGSVGC.mjs";

// src/cli/attach.ts
function sessionConnector(flags, env, dbPath, note) {
  return async (plan) => {
    const choice = chooseService({
      sim: flags.sim,
      baseUrl: flags.baseUrl,
      envBaseUrl: env.RESQ_BASE_URL,
      batches: plan.batch ? [plan.batch] : [{ settings: plan.settings, baseUrl: null }],
      planned: plan.baseUrl
    });
    const said = overrideNote(choice);
    if (said) note(said);
    const s = plan.settings;
    return openService(choiceFor(choice), {
      connections: Math.max(128, s.concurrency * 2 + s.download.concurrency + 16),
      dbPath,
      env,
      ...flags.simStateMustExist && choice.sim ? { simStateMustExist: true } : {}
    });
  };
}
async function driveSession(o) {
  const io = o.io;
  const renderer = pickRenderer(o.json, io, agentProgress());
  const stop = new AbortController();
  let stoppedBy = null;
  let sim = false;
  const offStop = io.onStop((signal) => {
    if (stoppedBy) return io.exitNow(STOP_SIGNALS[signal]);
    stoppedBy = signal;
    renderer.note(`stopping (${signal}): no new runs are admitted; runs in flight go on at the service (resq resume picks them up)`);
    stop.abort();
  });
  let r;
  try {
    const connect = sessionConnector(o.service, io.env, o.dbPath, (line) => renderer.note(line));
    r = await runBatchSession({
      ...o.session,
      hint: { db: o.dbPath },
      store: o.store,
      leaseMs: o.session.leaseMs ?? leaseMsFromEnv(io.env),
      service: async (plan) => {
        const service = await connect(plan);
        sim = service.kind === "sim";
        return service;
      },
      signal: stop.signal,
      onEvent: (e) => e.type === "notice" ? renderer.note(e.message) : renderer.onEvent(e)
    });
  } finally {
    offStop();
    renderer.stop();
  }
  return render(o, r, { sim, stoppedBy });
}
async function render(o, r, how) {
  const { io, store } = o;
  const { batch, status } = r;
  const out = o.session.out ?? batch.settings.download.out;
  if (!r.run) {
    const counts = status.counts;
    const msg = { type: "dry-run", batch: batch.name, batchId: batch.id, items: batch.totalItems, invalid: batch.invalidRows.length, counts, db: maskLocation(o.dbPath) };
    io.stdout.write(
      o.json ? `${JSON.stringify(msg)}
` : `dry run: batch ${escapeControls(batch.name)} recorded with ${batch.totalItems} items (${batch.invalidRows.length} invalid rows skipped); nothing submitted. database: ${maskLocation(o.dbPath)}
`
    );
    return EXIT.ok;
  }
  const result = r.run;
  const limit = o.session.limit;
  const unknownFinal = await listUnknownFinals(store, batch);
  const db = o.dbPath;
  const sim = how.sim;
  const resumeSim = how.sim && batch.settings.service !== "sim";
  if (o.json) {
    io.stdout.write(`${JSON.stringify({ type: "summary", ...status, unknownFinal, db: maskLocation(o.dbPath), out })}
`);
  } else {
    io.stdout.write(`${formatStatus(status, { db: o.dbPath, out, unknownFinal })}
`);
    if (r.files && r.files.problems.length > 0)
      io.stdout.write(`${r.files.problems.length} file(s) not downloaded; which: ${commandHint(["resq", "files", "status"], { db })}
to retry them: ${commandHint(["resq", "files", "pull"], { db, sim })}
`);
    const resume = commandHint(["resq", "resume", batch.name], { db, sim: resumeSim });
    if (result.fatal) io.stderr.write(`resq: stopped: ${userMessage(result.fatal, { db: o.dbPath, resume })}
`);
    else if (result.interrupted) io.stderr.write(`interrupted; to continue: ${resume}
`);
    else if (limit !== void 0 && status.counts.queued > 0)
      io.stdout.write(`--limit ${limit}: done as asked; ${status.counts.queued} item${status.counts.queued === 1 ? "" : "s"} left queued (or run again with --limit N); to go on: ${resume}
`);
  }
  if (r.judging) {
    const [{ judgingLines }, { judgingCost }] = await Promise.all([import("./judging-line-7BS4NJ2P.mjs"), import("./judge-batch-IOU73L45.mjs")]);
    for (const line of judgingLines(r.judging, await judgingCost(store, batch) ?? { runs: 0, cost: 0 }, db)) io.stderr.write(`${line}
`);
  }
  const code = exitCodeForRun(result, { limited: limit !== void 0 });
  return result.interrupted && how.stoppedBy ? STOP_SIGNALS[how.stoppedBy] : code;
}

export {
  sessionConnector,
  driveSession
};
//# sourceMappingURL=chunk-RZMXQJVK.mjs.map
