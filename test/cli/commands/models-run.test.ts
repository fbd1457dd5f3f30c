import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/cli.js';
import { runInProcess } from '../../support/in-process-cli.js';

describe('resq models run with --db', () => {
  it('records the run like a one-row models batch and downloads its file outputs under --out', async () => {
    const dir = tempDir();
    const db = join(dir, 'm.db');
    const r = await runInProcess(['models', 'run', 'fold', '--sim', '--db', db, '--out', join(dir, 'files'), '--input', 'sequence=MKTAYIAK', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const row = JSON.parse(r.stdout.trim());
    expect(row).toMatchObject({ status: 'succeeded', batch: expect.stringMatching(/^fold-run-/) });
    expect(row.files).toHaveLength(1);
    expect(row.files[0].status).toBe('downloaded');
    expect(row.files[0].path.startsWith(join(dir, 'files'))).toBe(true);
    expect(createHash('sha256').update(readFileSync(row.files[0].path)).digest('hex')).toBe(row.files[0].sha256);
    const store = SqliteStore.open(db);
    const batch = (await store.findBatch(row.batch))!;
    expect(batch.kind).toBe('models');
    expect((await store.modelRun(batch.id, '1'))).toMatchObject({ modelId: 'fold', inputs: { sequence: 'MKTAYIAK' }, status: 'succeeded' });
    await store.close();
  });

  it('its hint names the --db it recorded into, and works pasted', async () => {
    const dir = tempDir();
    const db = join(dir, 'm.db');
    const r = await runInProcess(['models', 'run', 'fold', '--sim', '--db', db, '--out', join(dir, 'files'), '--input', 'sequence=MKTAYIAK']);
    expect(r.code, r.stderr).toBe(0);
    const hint = /\(resq (models status \S+ --db \S+)\)/.exec(r.stdout);
    expect(hint?.[1]).toBe(`models status ${/batch (\S+) in/.exec(r.stdout)![1]} --db ${db}`);
    const status = await runInProcess(hint![1]!.split(' '));
    expect(status.code, status.stderr).toBe(0);
  });

  it('without --db records nothing', async () => {
    const dir = tempDir();
    const r = await runInProcess(['models', 'run', 'fold', '--sim', '--input', 'sequence=MKTAYIAK'], {}, {});
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('recorded as batch');
    expect(existsSync(join(dir, 'resq.db'))).toBe(false);
  });
});
