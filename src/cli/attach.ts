import { runBatchSession, type SessionOptions, type SessionPlan, type SessionResult } from '../runner/session.js';
import { leaseMsFromEnv } from './lease-env.js';
import type { SessionStore } from '../runner/session.js';
import { maskLocation } from '../store/open.js';
import { commandHint } from '../text/command-hint.js';
import { escapeControls } from '../text/escape-text.js';
import { userMessage } from './error-message.js';
import { EXIT, exitCodeForRun } from './exit-codes.js';
import { STOP_SIGNALS, type CliIo, type StopSignal } from './io.js';
import { agentProgress, pickRenderer, type RunEvent } from './progress.js';
import { choiceFor, openService } from './service.js';
import { chooseService, overrideNote } from '../service-choice.js';
import { formatStatus } from './summary.js';
import { listUnknownFinals } from './unknown-status.js';

/** Where the command line says runs go; what it leaves out comes from the batch and the environment. */
export interface ServiceFlags {
  /** `--sim` as given (undefined: the batch's own choice). */
  sim?: boolean | undefined;
  /** `--base-url` (or a pipeline's URL) as given. */
  baseUrl?: string | undefined;
  /** Resuming a `--sim` batch: its simulator state must be there. */
  simStateMustExist?: boolean;
}

/** Everything needed to drive a batch session from the terminal. */
export interface DriveOptions {
  store: SessionStore;
  dbPath: string;
  json: boolean;
  io: CliIo;
  service: ServiceFlags;
  /** The session's own options (what to run, overrides, limits). */
  session: Omit<SessionOptions, 'store' | 'service' | 'signal' | 'onEvent'>;
}


/**
 * The service for a session's plan, by the library's one rule ({@link chooseService}): `--sim`
 * or a simulator batch; else `--base-url`, RESQ_BASE_URL (said when it differs from the
 * batch's stored URL), the stored URL. Connections sized for the concurrency and downloads.
 */
export function sessionConnector(flags: ServiceFlags, env: NodeJS.ProcessEnv, dbPath: string, note: (line: string) => void) {
  return async (plan: SessionPlan) => {
    const choice = chooseService({
      sim: flags.sim,
      baseUrl: flags.baseUrl,
      envBaseUrl: env.RESQ_BASE_URL,
      batches: plan.batch ? [plan.batch] : [{ settings: plan.settings, baseUrl: null }],
      planned: plan.baseUrl,
    });
    const said = overrideNote(choice);
    if (said) note(said);
    const s = plan.settings;
    return openService(choiceFor(choice), {
      connections: Math.max(128, s.concurrency * 2 + s.download.concurrency + 16),
      dbPath,
      env,
      ...(flags.simStateMustExist && choice.sim ? { simStateMustExist: true } : {}),
    });
  };
}

/**
 * Runs a batch session with progress on the terminal: the first SIGINT, SIGTERM or SIGHUP
 * stops admitting and lets in-flight writes commit (exit 130 / 143 / 129; `resq resume`
 * picks the batch up); a second exits at once. Prints the summary; returns the exit code.
 */
export async function driveSession(o: DriveOptions): Promise<number> {
  const io = o.io;
  const renderer = pickRenderer<RunEvent>(o.json, io, agentProgress());
  const stop = new AbortController();
  let stoppedBy: StopSignal | null = null;
  let sim = false;
  const offStop = io.onStop((signal) => {
    if (stoppedBy) return io.exitNow(STOP_SIGNALS[signal]);
    stoppedBy = signal;
    // Through the renderer: the bar is cleared first and drawn below, never over this line.
    renderer.note(`stopping (${signal}): no new runs are admitted; runs in flight go on at the service (resq resume picks them up)`);
    stop.abort();
  });
  let r: SessionResult;
  try {
    const connect = sessionConnector(o.service, io.env, o.dbPath, (line) => renderer.note(line));
    r = await runBatchSession({
      ...o.session,
      hint: { db: o.dbPath },
      store: o.store,
      leaseMs: o.session.leaseMs ?? leaseMsFromEnv(io.env),
      service: async (plan) => {
        const service = await connect(plan);
        sim = service.kind === 'sim';
        return service;
      },
      signal: stop.signal,
      onEvent: (e) => (e.type === 'notice' ? renderer.note(e.message) : renderer.onEvent(e)),
    });
  } finally {
    offStop();
    renderer.stop();
  }
  return render(o, r, { sim, stoppedBy });
}

/** The summary after a session, and its exit code. */
async function render(o: DriveOptions, r: SessionResult, how: { sim: boolean; stoppedBy: StopSignal | null }): Promise<number> {
  const { io, store } = o;
  const { batch, status } = r;
  const out = o.session.out ?? batch.settings.download.out;
  if (!r.run) {
    const counts = status.counts;
    const msg = { type: 'dry-run', batch: batch.name, batchId: batch.id, items: batch.totalItems, invalid: batch.invalidRows.length, counts, db: maskLocation(o.dbPath) };
    io.stdout.write(
      o.json
        ? `${JSON.stringify(msg)}\n`
        : `dry run: batch ${escapeControls(batch.name)} recorded with ${batch.totalItems} items (${batch.invalidRows.length} invalid rows skipped); nothing submitted. database: ${maskLocation(o.dbPath)}\n`,
    );
    return EXIT.ok;
  }
  const result = r.run;
  const limit = o.session.limit;
  const unknownFinal = await listUnknownFinals(store, batch);
  const db = o.dbPath;
  const sim = how.sim;
  // A batch started with --sim resumes on the simulator by itself: the flag only when it was not.
  const resumeSim = how.sim && batch.settings.service !== 'sim';
  if (o.json) {
    io.stdout.write(`${JSON.stringify({ type: 'summary', ...status, unknownFinal, db: maskLocation(o.dbPath), out })}\n`);
  } else {
    io.stdout.write(`${formatStatus(status, { db: o.dbPath, out, unknownFinal })}\n`);
    if (r.files && r.files.problems.length > 0)
      io.stdout.write(`${r.files.problems.length} file(s) not downloaded; which: ${commandHint(['resq', 'files', 'status'], { db })}\nto retry them: ${commandHint(['resq', 'files', 'pull'], { db, sim })}\n`);
    const resume = commandHint(['resq', 'resume', batch.name], { db, sim: resumeSim });
    if (result.fatal) io.stderr.write(`resq: stopped: ${userMessage(result.fatal, { db: o.dbPath, resume })}\n`);
    else if (result.interrupted) io.stderr.write(`interrupted; to continue: ${resume}\n`);
    else if (limit !== undefined && status.counts.queued > 0)
      io.stdout.write(`--limit ${limit}: done as asked; ${status.counts.queued} item${status.counts.queued === 1 ? '' : 's'} left queued (or run again with --limit N); to go on: ${resume}\n`);
  }
  // What judging the answers cost, and the judgings waiting for a person.
  if (r.judging) {
    const [{ judgingLines }, { judgingCost }] = await Promise.all([import('./text/judging-line.js'), import('../score/judge-batch.js')]);
    for (const line of judgingLines(r.judging, (await judgingCost(store, batch)) ?? { runs: 0, cost: 0 }, db)) io.stderr.write(`${line}\n`);
  }
  // Rows left out with --skip-invalid are listed in the summary, not a failure: asked for, so exit 0 when the rest completed.
  const code = exitCodeForRun(result, { limited: limit !== undefined });
  // SIGTERM and SIGHUP stop like Ctrl-C but say which signal it was: 143 / 129.
  return result.interrupted && how.stoppedBy ? STOP_SIGNALS[how.stoppedBy] : code;
}
