import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OutFolders } from '../../src/files/out-folders.js';
import { UnsafePathError } from '../../src/files/safe-name.js';
import { openStore } from '../../src/store/index.js';
import { newBatch } from './helpers.js';

describe('OutFolders', () => {
  it('makes <out>/<batch>-<start of id>/<item>/ once, discarding stale temp files there', async () => {
    const store = await openStore(':memory:');
    const batch = await newBatch(store, 'extra', { J05: 'q' }, '1a2b3c4d-0000');
    const out = mkdtempSync(join(tmpdir(), 'resq-folders-'));
    const stale = join(out, 'extra-1a2b3c4d', 'J05', '.report.md.999999-0123456789abcdef.partial');
    mkdirSync(join(out, 'extra-1a2b3c4d', 'J05'), { recursive: true });
    writeFileSync(stale, 'half');
    const folders = new OutFolders(store);
    expect(await folders.itemFolder(batch, out, 'J05')).toBe(join(out, 'extra-1a2b3c4d', 'J05'));
    expect(existsSync(stale)).toBe(false);
    await store.close();
  });

  it('refuses an item folder that a symlink takes outside the output folder', async () => {
    const store = await openStore(':memory:');
    const batch = await newBatch(store, 'linked', { a: 'q' }, 'abcdef01-0000');
    const out = mkdtempSync(join(tmpdir(), 'resq-folders-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'resq-elsewhere-'));
    mkdirSync(join(out, 'linked-abcdef01'), { recursive: true });
    symlinkSync(elsewhere, join(out, 'linked-abcdef01', 'a'));
    await expect(new OutFolders(store).itemFolder(batch, out, 'a')).rejects.toBeInstanceOf(UnsafePathError);
    await store.close();
  });
});
