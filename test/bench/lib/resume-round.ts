// One round of the resume scenarios: a batch is killed (SIGKILL) with `inFlight` runs in
// flight and resumed once those runs have finished at the service; times are from the
// spawn of `resq resume`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { atMs, runCli } from './cli-process.js';
import { writeQuestions } from './questions.js';
import { startSimProcess } from './sim-process.js';

const FINISHED = new Set(['completed', 'failed', 'error', 'cancelled']);

/** What one round measured, in ms from the spawn of `resq resume`. */
export interface Round {
  reattachMs: number;
  firstNewMs: number;
  startMs: number;
}

/** Sizes of a round; `cpuProfDir` profiles the resumed process. */
export interface RoundSpec {
  n: number;
  inFlight: number;
  runMs: number;
  cpuProfDir?: string;
}

/** Runs one kill-and-resume round against a fresh simulator process. */
export async function resumeRound({ n, inFlight, runMs, cpuProfDir }: RoundSpec): Promise<Round> {
  const dir = mkdtempSync(join(tmpdir(), 'resq-bench-resume-'));
  const sim = await startSimProcess();
  try {
    const questions = join(dir, 'q.csv');
    writeQuestions(questions, n, (i) => `Question ${i} @duration=${runMs}ms`);
    const env = { RESQ_API_KEY: sim.key };
    const common = ['--db', join(dir, 'resq.db'), '--base-url', sim.url, '--json'];
    const attached = new Set<string>();
    const first = await runCli({
      args: ['run', questions, '--batch', 'big', '--concurrency', String(inFlight), '--no-download', ...common],
      env,
      timed: false,
      onEvent: (e, child) => {
        // Once killed, later lines are the ones the child wrote before it died: still counted.
        if (e.type === 'item' && e.state === 'running') attached.add(String(e.id));
        // A run that ended before the kill (admitting thousands takes a while) is not in flight.
        else if (e.type === 'item' && typeof e.state === 'string' && FINISHED.has(e.state)) attached.delete(String(e.id));
        if (attached.size >= inFlight && child.exitCode === null && !child.killed) child.kill('SIGKILL');
      },
    });
    if (first.signal !== 'SIGKILL') throw new Error(`first run was not killed: exit ${first.code} ${first.stderr.slice(-500)}`);
    // Let the runs that were in flight finish at the service.
    await new Promise((resolve) => setTimeout(resolve, runMs + 500));
    let reattached = 0;
    let reattachedAt = NaN;
    let firstNewAt = NaN;
    const resumed = await runCli({
      args: ['resume', 'big', ...common],
      env,
      timed: false,
      onEvent: (e, child) => {
        if (e.type !== 'item') return;
        const id = String(e.id);
        if (attached.has(id) && e.state === 'completed' && ++reattached === attached.size) reattachedAt = atMs(e);
        if (!attached.has(id) && e.state === 'running' && Number.isNaN(firstNewAt)) firstNewAt = atMs(e);
        if (!Number.isNaN(reattachedAt) && !Number.isNaN(firstNewAt) && child.exitCode === null && !child.killed) child.kill('SIGINT');
      },
      nodeFlags: cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [],
    });
    if (Number.isNaN(reattachedAt)) throw new Error(`re-attached ${reattached}/${attached.size}: ${resumed.stderr.slice(-500)}`);
    const t0 = resumed.startedAt;
    return { reattachMs: reattachedAt - t0, firstNewMs: firstNewAt - t0, startMs: atMs(resumed.events.find((e) => e.type === 'start')) - t0 };
  } finally {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

