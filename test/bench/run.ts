// `npm run bench [-- --quick] [--only NAME[,NAME]] [--json PATH] [--rounds N …]`: runs every scenario in a
// fresh child process, one after another (the machine is small and shared: never two at
// once), prints one table and writes it as JSON.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchArgs, scenarioArgs } from './lib/args.js';
import { ROWS_MARK, renderTable, type BenchRow } from './lib/report.js';

/** Scenario names, in the order of issue 7 (then issue 14's start-up, issue 16's scale, issue 28's simulator state, issue 39's heap per run in flight; issue 23's floor runs first); each is `scenarios/<name>.ts`. */
const SCENARIOS = ['floor', 'throughput', 'workers', 'versus-plain', 'pauses', 'ingest', 'resume', 'downloads', 'long-streams', 'startup', 'in-flight', 'million', 'resume-10k', 'workers-pg', 'serve', 'serve-throughput', 'sim-state', 'heap-in-flight', 'score-1m'];

const args = benchArgs();
const only = args.get('only', '').split(',').filter(Boolean);
const unknown = only.filter((n) => !SCENARIOS.includes(n));
if (unknown.length) {
  process.stderr.write(`unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.join(', ')}\n`);
  process.exit(2);
}
/** Every flag but the runner's own reaches each scenario (`--quick`, `--rounds 5`, `--config N,C,D`, …). */
const pass = scenarioArgs(process.argv.slice(2));

async function runScenario(name: string): Promise<BenchRow[]> {
  const file = fileURLToPath(new URL(`./scenarios/${name}.ts`, import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...pass], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const line = out.split('\n').find((l) => l.startsWith(ROWS_MARK));
  if (code !== 0 || !line) {
    return [{ scenario: name, figure: 'FAILED', measured: `exit ${code}`, reference: '', ratio: null, target: '', met: false }];
  }
  return JSON.parse(line.slice(ROWS_MARK.length)) as BenchRow[];
}

const started = new Date();
const rows: BenchRow[] = [];
for (const name of SCENARIOS) {
  if (only.length && !only.includes(name)) continue;
  process.stderr.write(`bench: ${name}…\n`);
  const t = performance.now();
  // Targets are stated for the full sizes: a --quick run shows them but does not judge.
  rows.push(...(await runScenario(name)).map((r) => (args.quick ? { ...r, met: null } : r)));
  process.stderr.write(`bench: ${name} done in ${((performance.now() - t) / 1000).toFixed(0)} s\n`);
}
const machine = `${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load ${loadavg().map((l) => l.toFixed(1)).join(' ')}, node ${process.version}`;
process.stdout.write(`${renderTable(rows)}\n\n${started.toISOString()} · ${machine}${args.quick ? ' · --quick' : ''}\n`);
const jsonPath = args.get('json', '');
if (jsonPath) writeFileSync(jsonPath, `${JSON.stringify({ at: started.toISOString(), machine, quick: args.quick, rows }, null, 2)}\n`);
