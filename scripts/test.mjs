// `npm test`: the typecheck and `vitest run` side by side, not one after the other. The
// typecheck (TypeScript 7's native tsc) takes ~7–11 CPU-s; vitest's files spend much of their
// time waiting on child processes, servers and streams, so the typecheck fills a core they
// leave idle instead of adding its time to the run. Arguments go to vitest (`npm test -- <file>`).
// vitest's output streams as it comes; the typecheck's is held and printed once, after it
// ends, so the two never interleave. Exits non-zero when either fails.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const node = process.execPath;

/** Runs a child to its end; resolves with its exit code (a signal counts as a failure). */
function run(args, stdio) {
  const child = spawn(node, args, { cwd: root, stdio });
  let held = '';
  if (stdio[1] === 'pipe') {
    child.stdout.setEncoding('utf8').on('data', (d) => (held += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (held += d));
  }
  const stop = (sig) => child.kill(sig);
  process.on('SIGINT', stop).on('SIGTERM', stop);
  return new Promise((resolve) => {
    child.on('error', (e) => resolve({ code: 1, held: `${held}${e.message}\n` }));
    child.on('close', (code) => resolve({ code: code ?? 1, held }));
  });
}

const typecheck = run(['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.'], ['ignore', 'pipe', 'pipe']);
const vitest = run(['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)], ['ignore', 'inherit', 'inherit']);
const [t, v] = await Promise.all([typecheck, vitest]);
process.stdout.write(t.code === 0 ? '\ntypecheck (tsc --noEmit): no errors\n' : `\ntypecheck (tsc --noEmit) failed:\n${t.held}`);
process.exitCode = t.code !== 0 ? t.code : v.code;
