import { execFileSync } from 'node:child_process';
import { appendFileSync, linkSync, mkdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BatchRecord } from '../../src/store/index.js';
import { openRecordedFile } from '../../src/web/file-on-disk.js';
import { tempDir } from '../support/cli.js';

const batchWith = (out: string | null) => ({ settings: { download: { enabled: true, concurrency: 1, out } } }) as unknown as BatchRecord;

describe('a file is opened only where resq put it', () => {
  const out = tempDir('resq-out-');
  const file = join(out, 'b-1234', 'item', 'answer.md');
  mkdirSync(join(out, 'b-1234', 'item'), { recursive: true });
  writeFileSync(file, '# hi\n');

  const why = async (b: BatchRecord, path: string | null, bytes: number | null, id: { dev: string | null; ino: string | null } = { dev: null, ino: null }) => {
    const r = await openRecordedFile(b, { path, bytes, ...id });
    if (r.ok) await r.handle.close();
    return r.ok ? 'ok' : r.why;
  };

  it('opens a regular file inside the out folder with the recorded size', async () => {
    expect(await why(batchWith(out), file, 5)).toBe('ok');
  });

  it('refuses without a recorded out folder, a relative path, a path outside, a symlink, a size that differs', async () => {
    expect(await why(batchWith(null), file, 5)).toBe('no out folder is recorded for its batch');
    expect(await why(batchWith('out'), file, 5)).toBe('no out folder is recorded for its batch');
    expect(await why(batchWith(out), 'b-1234/item/answer.md', 5)).toBe('its recorded path is not an absolute path');
    expect(await why(batchWith(out), '/etc/hostname', 5)).toBe("its recorded path is outside the batch's out folder");
    expect(await why(batchWith(out), out, 5)).toBe("its recorded path is outside the batch's out folder");
    const link = join(out, 'b-1234', 'item', 'link.md');
    symlinkSync(file, link);
    expect(await why(batchWith(out), link, 5)).toBe('a part of its path is a symlink');
    expect(await why(batchWith(out), file, 6)).toBe('its size on disk (5 bytes) is not the size resq recorded (6)');
    expect(await why(batchWith(out), file, null)).toBe('resq recorded no size for it');
    expect(await why(batchWith(out), join(out, 'gone.md'), 5)).toBe('it is not on disk (ENOENT)');
  });

  it('opens only the file resq wrote: a hard link, a file replaced under its name or grown since is refused', async () => {
    const dir = join(out, 'b-1234', 'ids');
    mkdirSync(dir);
    const genuine = join(dir, 'genuine.txt');
    writeFileSync(genuine, 'abc\n');
    const idOf = (p: string) => {
      const st = statSync(p, { bigint: true });
      return { dev: st.dev.toString(), ino: st.ino.toString() };
    };
    const recorded = idOf(genuine);
    expect(await why(batchWith(out), genuine, 4, recorded)).toBe('ok');
    // A hard link in the out folder to a file outside it, of the recorded size; and the outside file's own identity recorded.
    const secret = join(tempDir('resq-outside-'), 'secret.txt');
    writeFileSync(secret, 'KEY\n');
    const linked = join(dir, 'linked.txt');
    linkSync(secret, linked);
    expect(await why(batchWith(out), linked, 4)).toBe('it has 2 links (a hard link: the same file may have a name outside the out folder)');
    expect(await why(batchWith(out), linked, 4, idOf(secret))).toBe('it has 2 links (a hard link: the same file may have a name outside the out folder)');
    // The same bytes put under the genuine name: a new inode.
    const fresh = join(dir, 'fresh.txt');
    writeFileSync(fresh, 'abc\n');
    renameSync(fresh, genuine);
    expect(await why(batchWith(out), genuine, 4, recorded)).toBe('it is not the file resq wrote (its device and inode differ: replaced since)');
    // The file as recorded now, then grown in place (the same inode).
    const now = idOf(genuine);
    appendFileSync(genuine, 'more');
    expect(await why(batchWith(out), genuine, 4, now)).toBe('its size on disk (8 bytes) is not the size resq recorded (4)');
    rmSync(linked);
  });

  it('a file downloaded before device and inode were recorded is opened on its single link and its size alone', async () => {
    expect(await why(batchWith(out), file, 5)).toBe('ok');
    const second = join(out, 'b-1234', 'item', 'second-name.md');
    linkSync(file, second);
    expect(await why(batchWith(out), file, 5)).toMatch(/^it has 2 links/);
    rmSync(second);
    expect(await why(batchWith(out), file, 5)).toBe('ok');
  });

  it('refuses what is not a regular file (a FIFO never blocks the server)', async () => {
    const fifo = join(out, 'b-1234', 'item', 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(await why(batchWith(out), fifo, 0)).toBe('it is not a regular file');
  });
});
