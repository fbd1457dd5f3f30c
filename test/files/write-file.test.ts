import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

function* chunks(n: number, size: number): Generator<Buffer> {
  for (let i = 0; i < n; i++) yield Buffer.alloc(size, i % 251);
}

describe('writeAtomically', () => {
  it('writes, hashes and renames into place, leaving no temp file', async () => {
    const target = join(dir, 'f.bin');
    const whole = Buffer.concat([...chunks(10, 1000)]);
    const d = await writeAtomically(Readable.from(chunks(10, 1000)), target, { expectedBytes: 10_000 });
    expect(d).toEqual({ bytes: 10_000, sha256: sha(whole) });
    expect(readFileSync(target).equals(whole)).toBe(true);
    expect(readdirSync(dir)).toEqual(['f.bin']);
  });

  it('writes bodies of many chunks and sizes byte for byte', async () => {
    for (const [n, size] of [[1, 1], [300, 65536], [7, 1_000_003]] as const) {
      const target = join(dir, `f-${n}-${size}.bin`);
      const whole = Buffer.concat([...chunks(n, size)]);
      const d = await writeAtomically(Readable.from(chunks(n, size)), target, { expectedBytes: whole.length });
      expect(d).toEqual({ bytes: whole.length, sha256: sha(whole) });
      expect(readFileSync(target).equals(whole)).toBe(true);
    }
    expect(readdirSync(dir)).toHaveLength(3);
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
