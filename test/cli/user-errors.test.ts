// Ordinary mistakes are user errors: exit 2, one plain line, no stack, nothing created where
// it should not be. Run in-process (commands are functions of their arguments and an IO).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { tempDir } from '../support/cli.js';
import { runInProcess } from '../support/in-process-cli.js';
import { shSplit } from '../support/sh-split.js';

function expectPlain(r: { code: number; stderr: string }, pattern: RegExp): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(pattern);
  expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
}

describe('ordinary mistakes are user errors', () => {
  let sim: Sim;
  let dir: string;
  let q: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 10 });
    env = { RESQ_API_KEY: sim.keys[0] ?? '', RESQ_BASE_URL: sim.url };
    dir = tempDir();
    q = join(dir, 'q.csv');
    writeFileSync(q, 'id,question\na,one\nb,two\n');
  });
  afterAll(async () => sim.close());

  it('a folder as --db', async () => {
    expectPlain(await runInProcess(['export', '--db', dir]), /--db .*: is a folder, not a database file/);
    expectPlain(await runInProcess(['run', q, '--db', dir, '--dry-run']), /is a folder/);
  });

  it('a pooler or direct value resq does not know in a postgres:// --db (nothing connected, the password in no output)', async () => {
    const db = 'postgres://u:hunter2-secret@127.0.0.1:1/resq';
    for (const [url, said] of [
      [`${db}?pooler=statement`, /^resq: --db: pooler=statement is not a pooling mode resq knows: pooler=transaction/],
      [`${db}?pooler=transaction&direct=db:port`, /^resq: --db: direct=db:port is not HOST or HOST:PORT/],
    ] as const) {
      const r = await runInProcess(['status', '--db', url]);
      expectPlain(r, said);
      expect(r.stderr).not.toContain('hunter2-secret');
    }
  });

  it('a file that is not a database as --db', async () => {
    const notDb = join(dir, 'notes.db');
    writeFileSync(notDb, 'these are my notes, not a database\n');
    expectPlain(await runInProcess(['status', '--db', notDb]), /not a resq database/);
    expectPlain(await runInProcess(['run', q, '--db', notDb, '--dry-run']), /not a resq database/);
  });

  it('a missing folder in --db is never created', async () => {
    const missing = join(dir, 'nope', 'deeper');
    expectPlain(await runInProcess(['run', q, '--db', join(missing, 'x.db'), '--dry-run']), /folder .*nope\/deeper does not exist/);
    expect(existsSync(join(dir, 'nope'))).toBe(false);
  });

  it('a folder or a missing folder as --output, leaving no .partial', async () => {
    const db = join(dir, 'out.db');
    expect((await runInProcess(['run', q, '--db', db, '--dry-run'])).code).toBe(0);
    const outDir = join(dir, 'exports');
    mkdirSync(outDir);
    expectPlain(await runInProcess(['export', '--db', db, '--output', outDir]), /--output .*: is a folder; give a file path/);
    expect(readdirSync(dir).filter((f) => f.endsWith('.partial'))).toEqual([]);
    expectPlain(await runInProcess(['export', '--db', db, '--output', join(dir, 'gone', 'e.jsonl')]), /does not exist/);
  });

  it('resq sim: a port out of range or in use', async () => {
    expectPlain(await runInProcess(['sim', '--port', '70000']), /--port: must be a whole number from 0 to 65535/);
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    const port = (taken.address() as { port: number }).port;
    try {
      expectPlain(await runInProcess(['sim', '--port', String(port)]), new RegExp(`--port ${port}: already in use`));
    } finally {
      taken.close();
    }
  });

  it('resq sim on a busy default port names the port (8787), not "undefined"', async () => {
    // Held here unless something else already holds it: either way 8787 is busy for the run.
    const taken = createServer();
    await new Promise<void>((r) => {
      taken.once('error', () => r());
      taken.listen(8787, '127.0.0.1', () => r());
    });
    try {
      expectPlain(await runInProcess(['sim']), /^resq: --port 8787: already in use on 127\.0\.0\.1 \(pick another, or --port 0 for any free port\)$/m);
    } finally {
      taken.close();
    }
  });

  it('a header changed on reading (trailing space, empty columns) is one notice each with its line; the run goes on, exit 0; a duplicate is refused, exit 2', async () => {
    const d = tempDir();
    const csv = join(d, 'odd header.csv');
    writeFileSync(csv, 'id,question,"priority ","\u001b[31mtag\t",,\na,one,1,x,,\nb,two,2,y,,\n');
    for (const json of [[], ['--json']]) {
      const r = await runInProcess(['run', csv, '--db', join(d, `r${json.length}.db`), ...json], env);
      expect(r.code, r.stderr).toBe(0);
      const said = r.stderr.split('\n').filter((l) => l.includes(': header: '));
      expect(said).toEqual([
        `notice: ${csv}:1: header: read column 3 "priority " as "priority", column 4 "\\u001b[31mtag\\t" as "\\u001b[31mtag" (spaces around a name are dropped)`,
        `notice: ${csv}:1: header: columns 5–6 have no name and are ignored (a value in them is refused)`,
      ]);
      expect(r.stderr).not.toContain('\u001b');
    }
    const dup = join(d, 'dup.csv');
    writeFileSync(dup, 'id,question,priority,"priority "\na,one,1,2\n');
    expectPlain(await runInProcess(['run', dup, '--db', join(d, 'dup.db'), '--dry-run']), /dup\.csv:1: header: columns 3 and 4 are both named "priority": rename one$/m);
  });

  it('a UTF-16 set named with an escape sequence: no raw control on the terminal, and the printed iconv line, pasted, gives a file resq runs', async () => {
    const d = tempDir();
    const named = join(d, 'my set\u001b[31m.csv');
    writeFileSync(named, Buffer.from('id,question\na,one\n', 'utf16le').swap16());
    const refused = await runInProcess(['run', named, '--db', join(d, 'u.db'), '--dry-run']);
    expectPlain(refused, /file is UTF-16 encoded \(UTF-16BE\)/);
    expect(refused.stderr).not.toContain('\u001b');
    const pasted = refused.stderr.trim().split('convert it with ')[1]!;
    const sh = spawnSync('/bin/sh', ['-c', pasted], { encoding: 'utf8' });
    expect(sh.status, sh.stderr).toBe(0);
    const ran = await runInProcess(['run', join(d, 'my set\u001b[31m.utf8.csv'), '--db', join(d, 'u.db'), '--dry-run']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('recorded with 1 items');
    expect(ran.stdout + ran.stderr).not.toContain('\u001b');
    const missing = await runInProcess(['run', join(d, 'gone\u001b[2J.csv'), '--db', join(d, 'u.db'), '--dry-run']);
    expectPlain(missing, /gone\\x1b\[2J\.csv: cannot open: no such file/);
  });

  it('a batch of agent runs named to resq models status: exit 2, the line ends with the command that does act on it', async () => {
    const d = tempDir();
    const db = join(d, 'my runs.db');
    const csv = join(d, 'two words.csv');
    writeFileSync(csv, 'question\none\n');
    expect((await runInProcess(['run', csv, '--db', db, '--dry-run'])).code).toBe(0);
    const r = await runInProcess(['models', 'status', 'two words', '--db', db]);
    expectPlain(r, /this is a batch of agent runs \(resq status, export and resume act on it\): /);
    expect(shSplit(r.stderr.trim().split('act on it): ')[1]!)).toEqual(['resq', 'status', 'two words', '--db', db]);
  });

  it("--batch ''", async () => {
    expectPlain(await runInProcess(['run', q, '--batch', '', '--db', join(dir, 'e.db'), '--dry-run']), /--batch: give a name/);
  });

  it('a run refused for bad input leaves no empty database behind', async () => {
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'id,question\na,\n');
    const db = join(dir, 'refused.db');
    const r = await runInProcess(['run', bad, '--db', db], env);
    expect(r.code).toBe(2);
    expect(existsSync(db)).toBe(false);
    expect(existsSync(`${db}.sim.json`)).toBe(false);
  });

  it('same-stem files into one database: says a batch of that name exists from another file and suggests --batch', async () => {
    const d = tempDir();
    const csv = join(d, 'q.csv');
    const jsonl = join(d, 'q.jsonl');
    writeFileSync(csv, 'question\none\n');
    writeFileSync(jsonl, '{"question":"other"}\n');
    const db = join(d, 'r.db');
    expect((await runInProcess(['run', csv, '--db', db, '--dry-run'])).code).toBe(0);
    const r = await runInProcess(['run', jsonl, '--db', db, '--dry-run']);
    expectPlain(r, /a batch named "q" already exists in this database from another file \(.*q\.csv\); .* --batch q-jsonl/);
    expect(r.stderr).not.toMatch(/changed since/);
  });

  it('hint lines carry --db when the database is not the default', async () => {
    const held = join(dir, 'held.csv');
    writeFileSync(held, 'id,question\nplan,plan @confirm=30\n');
    const db = join(dir, 'hints.db');
    const r = await runInProcess(['run', held, '--db', db], env);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(`  see the first: resq show held plan --db ${db}\n`);
    expect(r.stdout).toMatch(new RegExp(`\\n  answer \\(or --decline\\): resq answer held plan --run [\\w-]+ --approve --db ${db}\\n`));
    const a = await runInProcess(['answer', 'held', 'plan', '--approve', '--db', db]);
    expect(a.stdout).toContain(`resq resume held --db ${db}`);
  });
});
