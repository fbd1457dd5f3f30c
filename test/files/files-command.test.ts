import { readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCliChild, tempDir } from '../support/cli.js';
import { runInProcess } from '../support/in-process-cli.js';
import { newBatch, newEnv, runItems, type Env } from './helpers.js';

let env: Env;
afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  process.exitCode = 0;
  await env?.close();
});

/** Runs `resq files …` in-process through the real CLI; returns stdout, stderr and the exit code. */
async function files(args: string[]): Promise<{ out: string; err: string; code: number }> {
  const r = await runInProcess(['files', ...args, '--db', join(env.dir, 'resq.db')], { RESQ_API_KEY: process.env.RESQ_API_KEY });
  return { out: r.stdout, err: r.stderr, code: r.code };
}

async function ready(): Promise<void> {
  env = await newEnv({ fileDb: true });
  vi.stubEnv('RESQ_API_KEY', 'sim-key-alice');
  const batch = await newBatch(env.store, 'cli', { a: 'q @files=md,csv', b: 'q @files=png' });
  await runItems(env, batch);
}

describe('resq files', () => {
  it('status shows counts, bytes, soonest expiry (text and --json)', async () => {
    await ready();
    const text = await files(['status']);
    expect(text.out).toMatch(/^files of batch cli: 3 — 0 downloaded, 3 pending, 0 failed, 0 expired, 0 missing$/m);
    expect(text.out).toMatch(/^on disk: 0 B$/m);
    expect(text.out).toMatch(/^soonest expiry among files not on disk: \S+ \(in 29 d 23 h\)$/m);
    const json = JSON.parse((await files(['status', 'cli', '--json'])).out);
    expect(json).toMatchObject({ type: 'files-status', batches: ['cli'], total: 3, counts: { pending: 3 } });
  });

  it('pull downloads everything and exits 0; verify then finds it intact', async () => {
    await ready();
    const pull = await files(['pull', 'cli', '--base-url', env.sim.url, '--out', env.out]);
    expect(pull.code).toBe(0);
    expect(pull.out).toMatch(/^files of batch cli: 3 downloaded \([\d.]+ KiB\), 0 already on this machine$/m);
    const verify = await files(['verify']);
    expect(verify).toMatchObject({ code: 0 });
    expect(verify.out).toMatch(/^verified 3 downloaded files: 3 intact/m);
  });

  it('status says which machine holds which files; pull --out fetches into DIR what only other machines hold, and then this machine holds them too', async () => {
    await ready();
    await files(['pull', '--base-url', env.sim.url, '--out', env.out]);
    // As if two workers on other machines had downloaded them into their own folders.
    const batch = (await env.store.findBatch('cli'))!;
    for (const [i, f] of (await env.store.filesForBatch(batch.id)).entries())
      await env.store.markFileDownloaded(batch.id, f.id, { path: f.path!.replace(env.out, `/scratch/${i === 0 ? 'c' : 'a'}`), bytes: f.bytes!, sha256: f.sha256!, mediaType: f.mediaType, host: i === 0 ? 'box-c' : 'box-a' });
    const status = await files(['status']);
    expect(status.out).toMatch(/^held by:\n  box-a: 2 files, [\d.]+ K?i?B in \/scratch\/a\/cli-idcli\n  box-c: 1 file, [\d.]+ K?i?B in \/scratch\/c\/cli-idcli$/m);
    expect(status.out).toMatch(/^this machine \(.+\) lacks 3 downloaded files other machines hold: resq files pull --db \S+resq\.db --sim --out DIR fetches them into DIR$/m);
    const dir = join(env.dir, 'mine');
    const pull = await files(['pull', '--base-url', env.sim.url, '--out', dir]);
    expect(pull.code, pull.err).toBe(0);
    expect(pull.out).toMatch(/^files of batch cli: 3 downloaded \([\d.]+ KiB\), 3 of them held only by other machines \(box-c: 1, box-a: 2\), 0 already on this machine$/m);
    expect(readdirSync(join(dir, 'cli-idcli')).sort()).toEqual(['a', 'b']);
    const again = await files(['status']);
    expect(again.out).toMatch(/ \(this machine\): 3 files, [\d.]+ KiB in .*mine\/cli-idcli$/m);
    expect(again.out).not.toContain('lacks');
    const verify = await files(['verify']);
    expect(verify.out).toMatch(/^verified 3 downloaded files: 3 intact/m);
    const second = await files(['pull', '--base-url', env.sim.url, '--out', dir]);
    expect(second.out).toMatch(/^files of batch cli: 0 downloaded \(0 B\), 3 already on this machine$/m);
  });

  it('pull exits 1 with a clear summary when files cannot be fetched', async () => {
    await ready();
    env.sim.clock.advance(31 * 86_400_000);
    const pull = await files(['pull', '--base-url', env.sim.url, '--out', env.out]);
    expect(pull.code).toBe(1);
    // The local clock says the files are young, so the 404s read as missing.
    expect(pull.out).toMatch(/^not on disk: 3 \(0 expired, 3 missing, 0 failed, 0 pending\)$/m);
    expect(pull.out).toMatch(/^  missing  cli \/ a \/ report\.md: the service answered 404/m);
    expect(pull.out).not.toMatch(/\n\s+at /);
  });

  it('verify exits 1 and names a file gone from disk; pull fetches it again', async () => {
    await ready();
    await files(['pull', '--base-url', env.sim.url, '--out', env.out]);
    unlinkSync(join(env.out, 'cli-idcli', 'a', 'table.csv'));
    const verify = await files(['verify', 'cli']);
    expect(verify.code).toBe(1);
    expect(verify.out).toMatch(/^  gone +cli \/ a \/ .*table\.csv: .* is not on disk$/m);
    // The hint names the batch, the database and --sim (it ran on the in-process simulator): pasted, it runs.
    expect(verify.out).toContain(`resq files pull cli --db ${join(env.dir, 'resq.db')} --sim fetches them again`);
    const pull = await files(['pull', '--base-url', env.sim.url, '--out', env.out, '--json']);
    const last = JSON.parse(pull.out.trim().split('\n').at(-1)!);
    expect(last).toMatchObject({ type: 'files-pull', downloaded: 1, skipped: 2, notOnDisk: [] });
    expect(pull.code).toBe(0);
  });

  it('a batch that ran on the simulator is pulled from its simulator state; with none beside the database, refused plainly', async () => {
    await ready();
    const r = await files(['pull']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/the batch ran on the built-in simulator, but its state \(.*\) is not there/);
  });

  it('refuses a missing database and an unknown batch', async () => {
    await ready();
    const nope = await files(['status', 'nope']);
    expect([nope.code, nope.err]).toEqual([2, expect.stringMatching(/no batch named "nope" \(batches: cli\)/)]);
    unlinkSync(join(env.dir, 'resq.db'));
    const none = await files(['status']);
    expect([none.code, none.err]).toEqual([2, expect.stringMatching(/no such database/)]);
  });

  it('batches of one name in two databases, run from one folder, keep their files apart: nothing overwritten, both verify', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const q = join(dir, 'extra.csv');
    writeFileSync(q, 'id,question\nJ05,write it up @files=md\n');
    const out = join(dir, 'out');
    for (const db of ['resq.db', 'svc.db']) {
      const r = await runCliChild(['run', q, '--db', join(dir, db), '--sim', '--out', out], {}, dir);
      expect(r.code, r.stderr).toBe(0);
    }
    const folders = readdirSync(out).sort();
    expect(folders).toHaveLength(2);
    for (const f of folders) {
      expect(f).toMatch(/^extra-[0-9a-f]{8}$/);
      expect(readdirSync(join(out, f, 'J05'))).toEqual(['report.md']);
    }
    for (const db of ['resq.db', 'svc.db']) {
      const v = await runCliChild(['files', 'verify', '--db', join(dir, db)], {}, dir);
      expect(v.code, v.stdout).toBe(0);
      expect(v.stdout).toContain('verified 1 downloaded files: 1 intact');
    }
  });
});
