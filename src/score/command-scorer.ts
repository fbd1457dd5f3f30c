import { spawn } from 'node:child_process';
import { z } from 'zod';
import { SECRET_ENV } from '../notify/deliver.js';
import { type Judgement, type ScoreInput, unscored } from './judgement.js';
import type { ScorerSpec } from './types.js';

/** The most a scorer program may print (more is cut off and refused). */
const MAX_OUTPUT = 64 * 1024;
/** The longest reason kept from a program. */
const MAX_REASON = 500;

/** What a scorer program prints: checked, never trusted (pass a boolean, score finite 0..1). */
const printed = z.object({
  pass: z.boolean({ error: 'pass must be true or false' }),
  score: z.number({ error: 'score must be a number' }).min(0, { error: 'score must be from 0 to 1' }).max(1, { error: 'score must be from 0 to 1' }).nullable().optional(),
  reason: z.string({ error: 'reason must be text' }).optional(),
});

/** The JSON a scorer program gets on stdin: the item and its answer. */
export function commandInput(item: ScoreInput, scorer: string): string {
  return JSON.stringify({ scorer, id: item.id, question: item.question, expected: item.expected, answer: item.text, files: item.files ?? [] });
}

/** A program's output as a judgement: a pass or a fail with its score and reason, or unscored with what was wrong. Pure. */
export function judgementOfOutput(out: string): Judgement {
  const text = out.trim();
  if (!text) return unscored('the scorer printed nothing');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return unscored('the scorer printed no JSON object');
  }
  const r = printed.safeParse(value);
  if (!r.success) return unscored(`the scorer printed ${r.error.issues[0]?.message ?? 'an unexpected value'}`);
  const reason = (r.data.reason ?? '').slice(0, MAX_REASON);
  return { pass: r.data.pass, score: r.data.score ?? (r.data.pass ? 1 : 0), reason: reason || (r.data.pass ? 'passed' : 'failed') };
}

/**
 * Runs a `command` scorer's program on one item: `/bin/sh -c <command>`, the item as JSON on
 * stdin, its stdout read as `{"pass", "score", "reason"}` (its stderr dropped), killed with its
 * group after `timeout_seconds`. It gets no secret in its environment. A program that fails,
 * times out or prints something else leaves the item unscored with that reason; never throws.
 * Run only for a scorers file given on this process's own command line (never from the database).
 */
export function judgeWithCommand(spec: ScorerSpec, item: ScoreInput, signal?: AbortSignal): Promise<Judgement> {
  const command = String(spec.settings['command']);
  const timeoutMs = Number(spec.settings['timeout_seconds'] ?? 30) * 1000;
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, RESQ_SCORER: spec.name };
    for (const name of SECRET_ENV) delete env[name];
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'pipe', 'ignore'], env, detached: true });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const kill = (): void => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    };
    const end = (j: Judgement): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      resolve(j);
    };
    const stop = (): void => {
      kill();
      end(unscored('stopped before the scorer ended'));
    };
    const timer = setTimeout(() => {
      kill();
      end(unscored(`the scorer did not end in ${timeoutMs / 1000} s`));
    }, timeoutMs);
    signal?.addEventListener('abort', stop, { once: true });
    child.stdout.on('data', (b: Buffer) => {
      size += b.length;
      if (size > MAX_OUTPUT) {
        kill();
        end(unscored(`the scorer printed more than ${MAX_OUTPUT / 1024} KB`));
      } else chunks.push(b);
    });
    child.on('error', (e) => end(unscored(`the scorer could not start (${(e as NodeJS.ErrnoException).code ?? 'failed'})`)));
    child.on('close', (code, sig) => end(code === 0 ? judgementOfOutput(Buffer.concat(chunks).toString('utf8')) : unscored(`the scorer exited with ${code ?? sig}`)));
    child.stdin.on('error', () => {});
    child.stdin.end(commandInput(item, spec.name));
  });
}
