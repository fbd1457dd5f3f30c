import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { fileChunks, hashFile, type HashTap } from '../../src/tables/file-chunks.js';
import { tempDir } from '../support/cli.js';

describe("a file's bytes", () => {
  const dir = tempDir();
  // Larger than one chunk (256 KiB), so the hash is fed more than once.
  const bytes = Buffer.alloc(600 * 1024, 'resq,');
  const path = join(dir, 'big.csv');
  writeFileSync(path, bytes);
  const sha = createHash('sha256').update(bytes).digest('hex');

  it('hashes a file of several chunks as the whole of its bytes', async () => {
    expect(await hashFile(path)).toBe(sha);
  });

  it('gives the chunks in order, feeding a tap that then says it saw the whole file', async () => {
    const tap: HashTap = { hash: createHash('sha256'), complete: false };
    const chunks: Buffer[] = [];
    for await (const c of fileChunks(path, tap)) chunks.push(c);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    expect(tap.complete).toBe(true);
    expect(tap.hash.digest('hex')).toBe(sha);
  });

  it('a reader that stops early leaves the tap incomplete', async () => {
    const tap: HashTap = { hash: createHash('sha256'), complete: false };
    for await (const _ of fileChunks(path, tap)) break;
    expect(tap.complete).toBe(false);
  });

  it('names a file that is missing or a folder in one line, its control characters escaped', async () => {
    const missing = join(dir, 'no\u001b[31mfile.csv');
    const err = await hashFile(missing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toBe(`${join(dir, 'no\\x1b[31mfile.csv')}: cannot open: no such file`);
    const folder = join(dir, 'folder.csv');
    mkdirSync(folder);
    await expect(hashFile(folder)).rejects.toThrow(`${folder}: not a regular file`);
  });
});
