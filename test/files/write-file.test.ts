import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discardStalePartials, hashFile, IncompleteBodyError, tempPathFor, writeAtomically } from '../../src/files/write-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'resq-write-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
/** A file's device and inode as resq records them (decimal text). */
const idOf = (path: string): { dev: string; ino: string } => {
  const st = statSync(path, { bigint: true });
  return { dev: st.dev.toString(), ino: st.ino.toString() };
};

function* chunks(n: number, size: number): Generator<Buffer> {
  for (let i = 0; i < n; i++) yield Buffer.alloc(size, i % 251);
}

describe('writeAtomically', () => {
  it('writes, hashes and renames into place, leaving no temp file', async () => {
    const target = join(dir, 'f.bin');
    const whole = Buffer.concat([...chunks(10, 1000)]);
    const d = await writeAtomically(Readable.from(chunks(10, 1000)), target, { expectedBytes: 10_000 });
    expect(d).toEqual({ bytes: 10_000, sha256: sha(whole), path: target, ...idOf(target) });
    expect(readFileSync(target).equals(whole)).toBe(true);
    expect(readdirSync(dir)).toEqual(['f.bin']);
  });

  it('writes bodies of many chunks and sizes byte for byte', async () => {
    for (const [n, size] of [[1, 1], [300, 65536], [7, 1_000_003]] as const) {
      const target = join(dir, `f-${n}-${size}.bin`);
      const whole = Buffer.concat([...chunks(n, size)]);
      const d = await writeAtomically(Readable.from(chunks(n, size)), target, { expectedBytes: whole.length });
      expect(d).toEqual({ bytes: whole.length, sha256: sha(whole), path: target, ...idOf(target) });
      expect(readFileSync(target).equals(whole)).toBe(true);
    }
    expect(readdirSync(dir)).toHaveLength(3);
  });

  it('with nextPath never replaces a file already there: other bytes move on to the next path, the same bytes are taken as this file', async () => {
    const target = join(dir, 'r.md');
    writeFileSync(target, 'written by someone else');
    const tried: string[] = [];
    const nextPath = (taken: string): string => (tried.push(taken), join(dir, `r (${tried.length + 1}).md`));
    const d = await writeAtomically(Readable.from([Buffer.from('report')]), target, { nextPath });
    expect(d).toEqual({ bytes: 6, sha256: sha(Buffer.from('report')), path: join(dir, 'r (2).md'), ...idOf(join(dir, 'r (2).md')) });
    expect(readFileSync(target, 'utf8')).toBe('written by someone else');
    expect(readFileSync(d.path, 'utf8')).toBe('report');
    // The same bytes again (another worker's copy of this file): no third name.
    const again = await writeAtomically(Readable.from([Buffer.from('report')]), d.path, { nextPath });
    expect(again.path).toBe(d.path);
    // Taken as this file: its identity is the file found there, linked once.
    expect({ dev: again.dev, ino: again.ino }).toEqual({ dev: d.dev, ino: d.ino });
    expect(statSync(d.path).nlink).toBe(1);
    expect(tried).toEqual([target]);
    expect(readdirSync(dir).sort()).toEqual(['r (2).md', 'r.md']);
  });

  it('without nextPath replaces the file at the path (a repair of the file\'s own copy)', async () => {
    const target = join(dir, 'own.md');
    writeFileSync(target, 'damaged');
    const d = await writeAtomically(Readable.from([Buffer.from('fresh')]), target);
    expect(d.path).toBe(target);
    expect(readFileSync(target, 'utf8')).toBe('fresh');
  });

  it('leaves the final path untouched and removes the temp file when the body breaks off', async () => {
    const target = join(dir, 'f.bin');
    writeFileSync(target, 'previous');
    async function* broken(): AsyncGenerator<Buffer> {
      yield Buffer.alloc(5000);
      throw Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    }
    await expect(writeAtomically(Readable.from(broken()), target)).rejects.toThrow(/other side closed/);
    expect(readFileSync(target, 'utf8')).toBe('previous');
    expect(readdirSync(dir)).toEqual(['f.bin']);
  });

  it('refuses a body shorter than its Content-Length', async () => {
    const target = join(dir, 'short.bin');
    await expect(writeAtomically(Readable.from(chunks(2, 100)), target, { expectedBytes: 300 })).rejects.toBeInstanceOf(IncompleteBodyError);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('stops and cleans up when aborted', async () => {
    const ac = new AbortController();
    async function* slow(): AsyncGenerator<Buffer> {
      yield Buffer.alloc(10);
      ac.abort(new Error('stop'));
      await new Promise((r) => setTimeout(r, 20));
      yield Buffer.alloc(10);
    }
    await expect(writeAtomically(Readable.from(slow()), join(dir, 'x'), { signal: ac.signal })).rejects.toThrow();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('discardStalePartials', () => {
  it('removes temp files of dead processes and keeps live ones and other files', async () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    const mine = basename(tempPathFor(join(dir, 'a.csv')));
    const names = {
      dead: `.a.csv.${dead}-0123456789abcdef.partial`,
      live: `.b.csv.${process.ppid}-0123456789abcdef.partial`,
      ownIdle: mine,
      other: 'c.partial',
      data: 'a.csv',
    };
    for (const n of Object.values(names)) writeFileSync(join(dir, n), 'x');
    const removed = await discardStalePartials(dir);
    expect(removed.sort()).toEqual([names.dead, names.ownIdle].sort());
    expect(readdirSync(dir).sort()).toEqual([names.live, names.other, names.data].sort());
  });

  it('does nothing for a folder that does not exist', async () => {
    expect(await discardStalePartials(join(dir, 'nope'))).toEqual([]);
  });
});

describe('hashFile', () => {
  it('streams size and sha256 of a file', async () => {
    const data = Buffer.from('hello world');
    writeFileSync(join(dir, 'h'), data);
    expect(await hashFile(join(dir, 'h'))).toEqual({ bytes: 11, sha256: sha(data) });
  });
});
