import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { Presence } from '../../src/runner/presence.js';
import type { BatchRecord, Store } from '../../src/store/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/cli.js';

let store: Store | null = null;
afterEach(async () => {
  await store?.close();
  store = null;
});

async function batch(s: Store): Promise<BatchRecord> {
  const settings = { concurrency: 2, follow: 'poll' as const, download: { enabled: false, concurrency: 1, out: null }, pipelineFile: null, service: 'url' as const };
  const l = await s.beginBatchLoad({ id: 'b', name: 'b', kind: 'runs', sourcePath: 'q', sourceSha256: 'x', baseUrl: null, settings, policy: null });
  await l.add({ id: 'a', seq: 0, line: 2, question: 'q', threadKey: null, meta: {} });
  await l.commit([], 'x');
  return (await s.findBatch('b'))!;
}

describe('Presence', () => {
  it('a worker of this host whose process is gone gives its items up at once; a live one or another host keeps them', async () => {
    store = SqliteStore.open(join(tempDir(), 'r.db'));
    const b = await batch(store);
    const t = 1_000_000;
    // A pid that surely ended: a child that ran and exited.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const gone = await store.registerWorker(b.id, { host: 'here', pid: dead }, t);
    await store.claimItems(b.id, { workerId: gone.id, leaseMs: 60_000, max: 1, cap: 2, afterSeq: -1 }, t);
    await store.registerWorker(b.id, { host: 'elsewhere', pid: dead }, t);
    await store.registerWorker(b.id, { host: 'here', pid: process.ppid }, t);
    const me = new Presence({ store, batch: b, host: 'here', pid: process.pid, leaseMs: 60_000 });
    const others = await me.register(t + 1);
    expect(others.map((w) => w.host).sort()).toEqual(['elsewhere', 'here']);
    expect(others.find((w) => w.host === 'here')?.pid).toBe(process.ppid);
    // Its item is free to take over now, long before its lease would end.
    const item = await store.getItem(b.id, 'a');
    expect(item?.owner).toBeNull();
    const claim = await store.claimItems(b.id, { ...me.lease, max: 1, cap: 2, afterSeq: -1 }, t + 2);
    expect(claim.items.map((i) => i.id)).toEqual(['a']);
    expect((await me.beat(t + 3)).workers).toBe(3);
    expect((await me.busyOthers(t + 3)).length).toBe(0);
  });
});
