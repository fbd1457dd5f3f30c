// Scenario: start-up of the installed command, as a user meets it. Packs the checkout
// (`npm pack`: dist/ built by prepack), installs the tarball globally into a temporary prefix,
// records a 100,000-item batch (a dry run: 100,000 queued items), then times `resq --version`
// and `resq status` through the installed `resq` (its `#!/usr/bin/env node` finding the
// project's Node first on PATH), each the median of many runs after one that fills the
// compile cache. The checkout's bin (its TypeScript sources, types stripped by Node) is timed too, for comparison.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { cleanEnv, installGlobal, pack, PROJECT_NODE_BIN, ROOT } from '../../support/package.js';
import { benchArgs } from '../lib/args.js';
import { writeQuestions } from '../lib/questions.js';
import { emitRows, fmt, quantile, row } from '../lib/report.js';

const args = benchArgs();
const n = 100_000;
const rounds = args.quick ? 7 : 21;

const dir = mkdtempSync(join(tmpdir(), 'resq-bench-startup-'));
try {
  const tarball = await pack();
  const prefix = join(dir, 'prefix');
  await installGlobal(tarball, prefix);
  rmSync(join(tarball, '..'), { recursive: true, force: true });
  const env = cleanEnv([join(prefix, 'bin'), PROJECT_NODE_BIN, ...(process.env.PATH ?? '').split(delimiter)]);
  const installed = join(prefix, 'bin', 'resq');
  const checkout = join(ROOT, 'bin', 'resq.js');

  /** Median wall time (ms) of a command, from spawn to exit; throws on a failure. */
  const median = (cmd: string, argv: string[]): { ms: number; all: number[] } => {
    const times: number[] = [];
    for (let i = 0; i <= rounds; i++) {
      const t0 = performance.now();
      const r = spawnSync(cmd, argv, { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
      const ms = performance.now() - t0;
      if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')}: exit ${r.status}: ${r.stderr}`);
      if (i > 0) times.push(ms); // the first run fills the compile cache
    }
    return { ms: quantile(times, 0.5), all: times };
  };

  writeQuestions(join(dir, 'q.csv'), n, (i) => `Question ${i}`);
  const load = spawnSync(installed, ['run', 'q.csv', '--dry-run', '--batch', 'big'], { cwd: dir, env, encoding: 'utf8' });
  if (load.status !== 0) throw new Error(`dry run: exit ${load.status}: ${load.stderr}`);

  const version = median(installed, ['--version']);
  const status = median(installed, ['status', 'big']);
  const devVersion = median(PROJECT_NODE_BIN + '/node', [checkout, '--version']);
  const devStatus = median(PROJECT_NODE_BIN + '/node', [checkout, 'status', 'big']);
  const p90 = (r: { all: number[] }): string => `p90 ${fmt(quantile(r.all, 0.9), 0, 'ms')}`;
  const name = `start-up, median of ${rounds}`;
  emitRows([
    row(name, 'installed: resq --version', fmt(version.ms, 0, 'ms'), p90(version), null, '<= 100 ms', version.ms <= 100),
    row(name, `installed: resq status, ${n / 1000}k items`, fmt(status.ms, 0, 'ms'), p90(status), null, '<= 300 ms', status.ms <= 300),
    row(name, 'checkout (sources): resq --version', fmt(devVersion.ms, 0, 'ms'), p90(devVersion)),
    row(name, `checkout (sources): resq status, ${n / 1000}k items`, fmt(devStatus.ms, 0, 'ms'), p90(devStatus)),
  ]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
