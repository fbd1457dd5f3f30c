import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { atMs, runCli, type CliResult } from './cli-process.js';
import { writeQuestions } from './questions.js';
import type { SimProcess } from './sim-process.js';

/** A policy that answers every pause the simulator makes (approve, first option). */
export const APPROVE_ALL = `confirm_scope:
  approve_max_cost: 1000
ask_choice:
  otherwise: first
request_quality_image: approve
`;

/** One `resq run` of a generated question set against a simulator process. */
export interface ResqRun extends CliResult {
  /** From the `start` event to the `end` event. */
  batchMs: number;
  questionsPath: string;
}

/** Options of {@link runResq}. */
export interface ResqWorkload {
  dir: string;
  sim: SimProcess;
  n: number;
  concurrency: number;
  question: (i: number) => string;
  /** Policy YAML; none holds every pause. */
  policy?: string;
  /** Extra CLI flags (e.g. `--no-download`). */
  flags?: string[];
  nodeFlags?: string[];
}

/** Writes the questions and runs `resq run … --json` on them in a fresh process; fails on a non-zero exit. */
export async function runResq(w: ResqWorkload): Promise<ResqRun> {
  const questionsPath = join(w.dir, 'questions.csv');
  writeQuestions(questionsPath, w.n, w.question);
  const args = ['run', questionsPath, '--db', join(w.dir, 'resq.db'), '--out', join(w.dir, 'out'), '--base-url', w.sim.url,
    '--concurrency', String(w.concurrency), '--json', ...(w.flags ?? [])];
  if (w.policy) {
    writeFileSync(join(w.dir, 'policy.yaml'), w.policy);
    args.push('--policy', join(w.dir, 'policy.yaml'));
  }
  const r = await runCli({ args, env: { RESQ_API_KEY: w.sim.key }, nodeFlags: w.nodeFlags });
  if (r.code !== 0) throw new Error(`resq exited ${r.code}: ${r.stderr.slice(-2000)}`);
  const start = r.events.find((e) => e.type === 'start');
  const end = r.events.find((e) => e.type === 'end');
  return { ...r, batchMs: atMs(end) - atMs(start), questionsPath };
}

/** Wall, CPU and peak RSS of a CLI process that loads one row and stops: the fixed cost of any resq command. */
export async function startupCost(dir: string): Promise<{ wallMs: number; cpuMs: number; maxRssBytes: number }> {
  const file = join(dir, 'one.csv');
  writeQuestions(file, 1, () => 'one');
  const r = await runCli({ args: ['run', file, '--dry-run', '--db', join(dir, 'startup.db'), '--json'] });
  return { wallMs: r.wallMs, cpuMs: r.cpuMs, maxRssBytes: r.maxRssBytes };
}
