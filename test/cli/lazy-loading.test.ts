// Start-up cost: each command loads only the modules it uses (cli.ts registers every command,
// but a command's implementation is imported when it runs). Checked by the set of modules the
// real CLI process loads, never by timing (timings belong in `npm run bench`).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { ROOT, runCliChild, tempDir } from '../support/cli.js';

/** A module hook for the child: records every module URL it loads into $RESQ_TEST_LOADED. */
const HOOK = `
import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const seen = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const r = next(specifier, context);
    seen.add(r.url);
    return r;
  },
  load(url, context, next) {
    seen.add(url);
    return next(url, context);
  },
});
process.on('exit', () => writeFileSync(process.env.RESQ_TEST_LOADED, [...seen].join('\\n')));
`;

describe('lazy loading of commands', () => {
  let dir: string;
  let hook: string;
  let csv: string;
  let sim: Sim;

  beforeAll(async () => {
    dir = tempDir();
    hook = join(dir, 'hook.mjs');
    writeFileSync(hook, HOOK);
    csv = join(dir, 'q.csv');
    writeFileSync(csv, 'id,question\n1,What is two and two?\n');
    sim = await startSim({ defaultDurationMs: 20 });
    // The checkout's bundle is built (after an edit, the first command builds it, with esbuild).
    expect((await runCliChild(['--help'])).code).toBe(0);
  });
  afterAll(async () => sim.close());

  /** Runs the CLI and returns its exit code and the loaded modules, as paths relative to the repo. */
  async function loaded(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; modules: string[]; files: string[]; stderr: string }> {
    const list = join(dir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
    const r = await runCliChild(args, { ...env, NODE_OPTIONS: `--import=${pathToFileURL(hook).href}`, RESQ_TEST_LOADED: list });
    const root = pathToFileURL(ROOT).href;
    const files = readFileSync(list, 'utf8')
      .split('\n')
      .filter((u) => u.startsWith(root))
      .map((u) => fileURLToPath(u));
    return { code: r.code, modules: files.flatMap(sourcesOf), files: files.map((f) => relative(ROOT, f)), stderr: r.stderr };
  }

  /** The files a loaded file holds, relative to the repo: itself, or a bundle file's sources (its folder's meta.json). */
  function sourcesOf(path: string): string[] {
    const meta = join(dirname(path), 'meta.json');
    if (!path.includes(`${sep}.cache${sep}resq-cli${sep}`) || !existsSync(meta)) return [relative(ROOT, path)];
    const { outputs } = JSON.parse(readFileSync(meta, 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
    return Object.keys(outputs[basename(path)]?.inputs ?? {});
  }

  const under = (modules: string[], prefix: string): string[] => modules.filter((m) => m.startsWith(prefix));

  it('--help loads the command definitions and yargs, nothing of the library behind them', async () => {
    const r = await loaded(['--help']);
    expect(r.code).toBe(0);
    expect(r.modules).toContain('src/cli/commands/run.ts');
    const src = under(r.modules, 'src/').filter((m) => !m.startsWith('src/cli/'));
    // The error classes, the one failure taxonomy and the full-disk check with what its line
    // needs (pure, no dependencies), with the text helpers that make an error printable and
    // the one command-hint builder that quotes the commands messages suggest: errors are
    // reported from start-up on. And the finder of resq's own package.json (its version). And the pooler hint (pure) a database error's line may carry, and the network
    // errors' own classing with this machine's shortages (EMFILE, ENOSPC…; pure) the taxonomy reads,
    // and the one test of a PostgreSQL URL (pure) the hints and the location share.
    expect(src.sort()).toEqual([
      'src/api/errors.ts',
      'src/api/failure-class.ts',
      'src/api/network-errors.ts',
      'src/errors.ts',
      'src/local-fault.ts',
      'src/package-root.ts',
      'src/runner/store-fault.ts',
      'src/store/location.ts',
      'src/store/postgres/pooler.ts',
      'src/store/settings-defaults.ts',
      'src/text/closest-word.ts',
      'src/text/command-hint.ts',
      'src/text/escape-text.ts',
      'src/text/postgres-url.ts',
      'src/text/printable.ts',
      'src/text/shell-quote.ts',
    ]);
    for (const pkg of ['zod', 'undici', 'yaml', 'better-sqlite3', 'pg', 'csv-parse'])
      expect(under(r.modules, `node_modules/${pkg}/`), pkg).toEqual([]);
  });

  it('a checkout runs a bundle of its TypeScript sources: no tsx, no TypeScript module loaded, no warning', async () => {
    const r = await loaded(['status', '--db', join(dir, 'none.db')]);
    expect(r.code).toBe(2);
    expect(r.modules).toContain('src/cli/main.ts');
    expect(under(r.modules, 'node_modules/tsx/')).toEqual([]);
    expect(under(r.files, 'node_modules/esbuild/')).toEqual([]);
    expect(r.files.filter((f) => /\.[mc]?ts$/.test(f))).toEqual([]);
    expect(r.files).toContainEqual(expect.stringMatching(/^node_modules\/\.cache\/resq-cli\/[0-9a-f]{16}\/main\.mjs$/));
    expect(r.stderr).not.toMatch(/ExperimentalWarning|Type Stripping/);
  });

  it('status and a dry run load neither the client nor the simulator', async () => {
    const db = join(dir, 'dry.db');
    const dry = await loaded(['run', csv, '--dry-run', '--db', db]);
    expect(dry.code, dry.stderr).toBe(0);
    const status = await loaded(['status', '--db', db]);
    expect(status.code, status.stderr).toBe(0);
    for (const r of [dry, status]) {
      expect(under(r.modules, 'src/sim/')).toEqual([]);
      expect(under(r.modules, 'src/api/').sort()).toEqual(['src/api/errors.ts', 'src/api/failure-class.ts', 'src/api/network-errors.ts']);
      expect(under(r.modules, 'src/models/')).toEqual([]);
      expect(under(r.modules, 'node_modules/undici/')).toEqual([]);
      expect(under(r.modules, 'node_modules/pg/')).toEqual([]);
    }
  });

  it('a run against a base URL does not load the simulator; --sim does', async () => {
    const env = { RESQ_API_KEY: sim.keys[0] ?? '' };
    const url = await loaded(['run', csv, '--db', join(dir, 'url.db'), '--base-url', sim.url, '--no-download', '--json'], env);
    expect(url.code, url.stderr).toBe(0);
    expect(url.modules).toContain('src/api/client.ts');
    expect(under(url.modules, 'src/sim/')).toEqual([]);
    // A SQLite database never loads the PostgreSQL client; --no-download: no downloader.
    expect(under(url.modules, 'node_modules/pg/')).toEqual([]);
    expect(under(url.modules, 'src/files/')).toEqual([]);
    const withSim = await loaded(['run', csv, '--db', join(dir, 'sim.db'), '--sim', '--no-download', '--json']);
    expect(withSim.code, withSim.stderr).toBe(0);
    expect(withSim.modules).toContain('src/sim/index.ts');
  });

  it('a resume reads no question rows and no config file: no table reader, no YAML, no CSV parser', async () => {
    const env = { RESQ_API_KEY: sim.keys[0] ?? '' };
    const db = join(dir, 'resume.db');
    const first = await runCliChild(['run', csv, '--db', db, '--batch', 'again', '--base-url', sim.url, '--no-download', '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    const r = await loaded(['resume', 'again', '--db', db, '--out', join(dir, 'resumed-files'), '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    // Its file is checked unchanged by its hash alone (tables/file-chunks.ts).
    expect(under(r.modules, 'src/tables/')).toEqual(['src/tables/file-chunks.ts']);
    expect(under(r.modules, 'src/config/')).toEqual([]);
    expect(r.modules).not.toContain('src/runner/load-batch.ts');
    for (const pkg of ['yaml', 'csv-parse']) expect(under(r.modules, `node_modules/${pkg}/`), pkg).toEqual([]);
  });
});
