// One round of the resume scenarios: a batch is killed (SIGKILL) with `inFlight` runs in
// flight and resumed once those runs have finished at the service; times are from the
// spawn of `resq resume`. Before it, the floor of a resume (test/bench/floor-reader.ts, a
// new process that only reads each of those runs once) is timed the same way against the
// same simulator (first, so that the runs `resq resume` then starts do not load it).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_REQUEST_CONNECTIONS } from '../../../src/api/options.js';
import { fitDescriptors } from '../../../src/runner/descriptor-fit.js';
import { atMs, runCli } from './cli-process.js';
import { ensureDescriptors } from './descriptor-room.js';
import { writeQuestions } from './questions.js';
import { startSimProcess } from './sim-process.js';

const FINISHED = new Set(['completed', 'failed', 'error', 'cancelled']);
const READER = fileURLToPath(new URL('../floor-reader.ts', import.meta.url));

/** What one round measured, in ms from the spawn of `resq resume`. */
export interface Round {
  reattachMs: number;
  firstNewMs: number;
  startMs: number;
  /** The floor: spawn of the bare reader to its last run read. */
  floorMs: number;
  /** Of that, spawn to its modules loaded. */
  floorStartMs: number;
  /** Simulator CPU per run read: during the floor, and during resq's re-attaching (new admissions included). */
  simPerReadFloorMs: number;
  simPerReadResqMs: number;
  /** Runs in flight (reported running, not yet ended) when the first run was killed. */
  inFlightAtKill: number;
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
  // Room for resq's own estimate of what `inFlight` runs hold, or it would run fewer at once.
  const room = ensureDescriptors(fitDescriptors(null, { concurrency: inFlight, downloads: 0, sameProcess: false }).needed);
  if (room.short) throw new Error(`resume round at ${inFlight} in flight: ${room.short}`);
  const dir = mkdtempSync(join(tmpdir(), 'resq-bench-resume-'));
  const sim = await startSimProcess();
  try {
    const questions = join(dir, 'q.csv');
    writeQuestions(questions, n, (i) => `Question ${i} @duration=${runMs}ms`);
    const env = { RESQ_API_KEY: sim.key };
    const common = ['--db', join(dir, 'resq.db'), '--base-url', sim.url, '--json'];
    const attached = new Set<string>();
    const runIds = new Map<string, string>();
    let inFlightAtKill = 0;
    let most = 0;
    let lowered = '';
    const first = await runCli({
      args: ['run', questions, '--batch', 'big', '--concurrency', String(inFlight), '--no-download', ...common],
      env,
      timed: false,
      onEvent: (e, child) => {
        // resq ran fewer at once than asked (too few open files): the count would never come.
        if (e.type === 'descriptors' && !child.killed) {
          lowered = `resq lowered its cap to ${String(e.runs)} (needs ${String(e.needed)} open files, may open ${String(e.limit)})`;
          child.kill('SIGKILL');
        }
        // Once killed, later lines are the ones the child wrote before it died: still counted.
        if (e.type === 'item' && e.state === 'running') {
          attached.add(String(e.id));
          runIds.set(String(e.id), String(e.runId));
        }
        // A run that ended before the kill (admitting thousands takes a while) is not in flight.
        else if (e.type === 'item' && typeof e.state === 'string' && FINISHED.has(e.state)) attached.delete(String(e.id));
        most = Math.max(most, attached.size);
        if (attached.size >= inFlight && child.exitCode === null && !child.killed) {
          child.kill('SIGKILL');
          inFlightAtKill = attached.size;
          process.stderr.write(`resume round: resq killed (SIGKILL) with ${inFlightAtKill} runs in flight\n`);
        }
      },
    });
    if (lowered) throw new Error(`first run: ${lowered}`);
    if (first.signal !== 'SIGKILL') throw new Error(`first run was not killed: exit ${first.code}, at most ${most} of ${inFlight} in flight at once ${first.stderr.slice(-500)}`);
    // Let the runs that were in flight finish at the service.
    await new Promise((resolve) => setTimeout(resolve, runMs + 500));
    const ids = join(dir, 'run-ids');
    writeFileSync(ids, `${[...attached].map((id) => runIds.get(id)).join('\n')}\n`);
    const simBeforeFloor = sim.cpuMs();
    const floor = await runCli({ args: [sim.url, sim.key, ids, String(DEFAULT_REQUEST_CONNECTIONS)], script: READER, timed: false });
    const floorEnd = floor.events.find((e) => e.type === 'end');
    if (floor.code !== 0 || floorEnd?.finished !== attached.size) throw new Error(`floor reader: exit ${floor.code}, ${String(floorEnd?.finished)}/${attached.size} finished: ${floor.stderr.slice(-500)}`);
    const simPerReadFloorMs = (sim.cpuMs() - simBeforeFloor) / attached.size;
    const simBeforeResq = sim.cpuMs();
    let simAtReattached = NaN;
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
        if (attached.has(id) && e.state === 'completed' && ++reattached === attached.size) {
          reattachedAt = atMs(e);
          simAtReattached = sim.cpuMs();
        }
        if (!attached.has(id) && e.state === 'running' && Number.isNaN(firstNewAt)) firstNewAt = atMs(e);
        if (!Number.isNaN(reattachedAt) && !Number.isNaN(firstNewAt) && child.exitCode === null && !child.killed) child.kill('SIGINT');
      },
      nodeFlags: cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : [],
    });
    if (Number.isNaN(reattachedAt)) throw new Error(`re-attached ${reattached}/${attached.size}: ${resumed.stderr.slice(-500)}`);
    const t0 = resumed.startedAt;
    return {
      reattachMs: reattachedAt - t0,
      firstNewMs: firstNewAt - t0,
      startMs: atMs(resumed.events.find((e) => e.type === 'start')) - t0,
      floorMs: atMs(floorEnd) - floor.startedAt,
      floorStartMs: atMs(floor.events.find((e) => e.type === 'start')) - floor.startedAt,
      simPerReadFloorMs,
      simPerReadResqMs: (simAtReattached - simBeforeResq) / attached.size,
      inFlightAtKill,
    };
  } finally {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

