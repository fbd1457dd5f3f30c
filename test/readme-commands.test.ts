// Every command block of the README, run as a newcomer would: in order, in one empty folder,
// one shell session (an `export` holds for what follows), the `resq` on PATH being this
// checkout's. The placeholders are filled: the service's URL and key with a simulator served
// over loopback, `dbhost` with a throwaway PostgreSQL server (its role and password made as
// the README says), folders with temporary ones. Each command must exit 0, or the code its
// comment names (`# exit 3: …`). A block the README marks `not run here` names what runs it.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../src/sim/index.js';
import { ROOT, tempDir } from './support/cli.js';
import { PROJECT_NODE_BIN } from './support/package.js';
import { pgAvailable } from './support/pg-server.js';
import { sharedPgServer, type SharedPg } from './support/pg-shared.js';
import { commandsOf, readmeBlocks } from './support/readme.js';

const blocks = readmeBlocks();
const shell = blocks.filter((b) => b.lang === 'sh' || b.lang === 'bash');

/** Runs one command line with `sh -c`; a server (`resq serve`, `resq sim`) is stopped once it printed its first line. */
function runLine(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }> {
  const server = /^resq (serve|sim)\b/.test(command);
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', server ? `exec ${command}` : command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let stopped = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      // Once: a second signal means "exit at once".
      if (server && !stopped && out.includes('\n')) stopped = child.kill('SIGTERM');
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

describe('the README, run as written', () => {
  let sim: Sim;
  let pg: SharedPg | null = null;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const filled = new Map<string, string>();
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 50 });
    dir = tempDir('resq-readme-');
    const bin = join(tempDir('resq-readme-bin-'), 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'resq'), `#!/bin/sh\nexec '${process.execPath}' '${join(ROOT, 'bin', 'resq.js')}' "$@"\n`);
    chmodSync(join(bin, 'resq'), 0o755);
    env = { ...process.env, PATH: [bin, PROJECT_NODE_BIN, ...(process.env.PATH ?? '').split(delimiter)].join(delimiter), FORCE_COLOR: '0' };
    for (const k of ['RESQ_BASE_URL', 'RESQ_API_KEY', 'RESQ_DB', 'RESQ_SERVE_TOKEN']) delete env[k];
    filled.set('https://research.example.org/api/v1', sim.url);
    filled.set('your-key', sim.keys[0]!);
    filled.set('/scratch/resq-out', join(dir, 'scratch-out'));
    if (pgAvailable()) {
      pg = await sharedPgServer();
      // What the README's set-up does as root: a role with a password, a database it owns.
      await pg.psql(['-c', "CREATE ROLE resq LOGIN PASSWORD 'choose-a-password'"]);
      await pg.psql(['-c', 'CREATE DATABASE resq OWNER resq']);
      filled.set('@dbhost:5432/', `@127.0.0.1:${pg.port}/`);
    }
  }, 120_000);
  afterAll(async () => {
    await sim?.close();
    await pg?.stop();
  });

  it('is short (at most 450 lines, about a third of the 1,221 it had; issue 37 added "Safe by default", issue 40 "Judging answers"), the user\'s sections first, and every docs/ link it makes leads to a file', () => {
    const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(text.split('\n').length).toBeLessThanOrEqual(450);
    const sections = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
    expect(sections.slice(0, 4)).toEqual(['Try it (no account needed)', 'Install', 'A first batch', 'Policies']);
    expect(sections.at(-1)).toBe('Libraries, and why');
    expect(text).not.toMatch(/^throughput N=/m); // the bench tables live in docs/performance.md
    const links = [...text.matchAll(/\]\((docs\/[^)#]+)/g)].map((m) => m[1]!);
    expect(links).toEqual(expect.arrayContaining(['docs/performance.md', 'docs/internals.md', 'docs/web.md', 'docs/reference.md']));
    for (const l of links) expect(existsSync(join(ROOT, l)), l).toBe(true);
  });

  it('marks every block it does not run with what runs it instead', () => {
    const skipped = shell.filter((b) => b.note?.startsWith('not run here:'));
    expect(skipped.map((b) => b.section)).toEqual([
      'Try it (no account needed)',
      'Install',
      'Several workers, several machines',
      'The web view (`resq serve`)',
      'Notebooks',
      'As a library',
    ]);
    for (const b of skipped) {
      const named = [...b.note!.matchAll(/(?:^|\s)(\.ci\/run|test\/[\w/.-]+\.ts)/g)].map((m) => m[1]!);
      expect(named.length, `README.md:${b.line}`).toBeGreaterThan(0);
      for (const f of named) expect(existsSync(join(ROOT, f)), `${f} (README.md:${b.line})`).toBe(true);
    }
  });

  for (const b of blocks) {
    const file = /^file (\S+)$/.exec(b.note ?? '')?.[1];
    if (file) {
      it(`README.md:${b.line} (${b.section}): saved as ${file}`, () => writeFileSync(join(dir, file), `${b.body}\n`));
      continue;
    }
    if (!(b.lang === 'sh' || b.lang === 'bash') || b.note?.startsWith('not run here:')) continue;
    const needsPg = b.note === 'postgres';
    it.skipIf(needsPg && !pgAvailable())(`README.md:${b.line} (${b.section})`, { timeout: 300_000 }, async () => {
      for (const { command: raw, comment } of commandsOf(b.body)) {
        let command = raw;
        for (const [from, to] of filled) command = command.split(from).join(to);
        const exported = /^export ((?:\w+=\S+\s*)+)$/.exec(command);
        if (exported) {
          for (const kv of exported[1]!.trim().split(/\s+/)) env[kv.slice(0, kv.indexOf('='))] = kv.slice(kv.indexOf('=') + 1);
          continue;
        }
        const want = Number(/\bexit (\d+)/.exec(comment)?.[1] ?? 0);
        const r = await runLine(command, dir, env);
        expect(r.code, `README.md:${b.line}: ${raw}\n${r.out}\n${r.err}`).toBe(want);
        expect(r.err, `README.md:${b.line}: ${raw}`).not.toMatch(/internal error|undefined/);
      }
    });
  }
});
