import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deliver, SECRET_ENV } from '../../src/notify/deliver.js';
import { tempDir } from '../support/cli.js';

describe('deliver to a command', () => {
  const saved = new Map<string, string | undefined>();
  afterEach(() => {
    for (const [k, v] of saved) v === undefined ? delete process.env[k] : (process.env[k] = v);
    saved.clear();
  });

  it('gives the command the JSON on stdin and the event id, never a secret of the environment', async () => {
    for (const name of SECRET_ENV) {
      saved.set(name, process.env[name]);
      process.env[name] = `secret-${name}`;
    }
    saved.set('RESQ_DB', process.env.RESQ_DB);
    process.env.RESQ_DB = 'postgres://resq:pw-in-url@db/resq';
    // The database's password as node-postgres also takes it: from PGPASSWORD.
    saved.set('PGPASSWORD', process.env.PGPASSWORD);
    process.env.PGPASSWORD = 'pw-in-pgpassword';
    const dir = tempDir();
    const out = join(dir, 'env.txt');
    const body = join(dir, 'body.json');
    await deliver({ kind: 'command', command: `env > '${out}'; cat > '${body}'` }, '{"type":"batch.finished"}', { 'X-Resq-Event-Id': 'b.finished:0', 'X-Resq-Event-Type': 'batch.finished' }, 10_000);
    const env = readFileSync(out, 'utf8');
    expect(readFileSync(body, 'utf8')).toBe('{"type":"batch.finished"}');
    expect(env).toContain('RESQ_EVENT_ID=b.finished:0');
    expect(env).not.toMatch(/secret-|pw-in-url|pw-in-pgpassword/);
    for (const name of SECRET_ENV) expect(env).not.toContain(`${name}=`);
  });
});
