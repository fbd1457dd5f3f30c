import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fileChunks } from '../../src/sim/file-content.js';
import { RequestLedger } from '../../src/sim/ledger.js';
import type { FileRecord, RunRecord } from '../../src/sim/records.js';
import { SimStore } from '../../src/sim/store.js';

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

function run(id: string, over: Partial<RunRecord> = {}): RunRecord {
  return {
    id, account: 'alice', threadId: 't1', createdAt: 0, completedAt: null, status: 'running', parentId: null,
    chain: { input: 'q', answers: [], narrow: false, earlierMessages: 0 }, step: 0, answeredBy: null, pausedAt: null,
    progress: 0, callIds: null, fileIds: null, live: null, listeners: null, ...over,
  };
}

describe('RequestLedger', () => {
  it('tallies requests per key with their distinct bodies; a request without a key is not counted', () => {
    const ledger = new RequestLedger();
    const store = new SimStore();
    ledger.keyed('alice', 'POST /api/v1/runs', 'k 1', '{"input":"a"}');
    ledger.keyed('alice', 'POST /api/v1/runs', 'k 1', '{"input":"a"}');
    ledger.keyed('alice', 'POST /api/v1/runs', 'k 1', '{"input":"b"}');
    ledger.keyed('bob', 'POST /api/v1/runs', 'k 1', '{"input":"a"}');
    ledger.keyed('alice', 'POST /api/v1/runs', undefined, '{"input":"c"}');
    store.idempotency.set('alice POST /api/v1/runs k 1', 'r1');
    expect(ledger.read(store).keys).toEqual([
      { account: 'alice', scope: 'POST /api/v1/runs', key: 'k 1', requests: 3, bodies: [sha('{"input":"a"}'), sha('{"input":"b"}')], madeId: 'r1' },
      { account: 'bob', scope: 'POST /api/v1/runs', key: 'k 1', requests: 1, bodies: [sha('{"input":"a"}')], madeId: null },
    ]);
  });

  it('reads each run with the key that made it (spaces and all) and each file with the hash and length of its served bytes', () => {
    const ledger = new RequestLedger();
    const store = new SimStore();
    const file: FileRecord = { id: 'file_1', account: 'alice', kind: 'csv', name: 'a.csv', sizeBytes: 200_000, residues: 30, createdAt: 0 };
    const orphan: FileRecord = { ...file, id: 'file_2', sizeBytes: undefined };
    store.files.set(file.id, file);
    store.files.set(orphan.id, orphan);
    store.runs.set('r1', run('r1', { status: 'requires_action' }));
    store.runs.set('r2', run('r2', { parentId: 'r1', fileIds: ['file_1'], status: 'completed' }));
    store.runs.set('r3', run('r3'));
    store.idempotency.set('alice POST /api/v1/runs key with spaces', 'r1');
    store.idempotency.set('alice POST /api/v1/runs/r1/respond resp', 'r2');
    const l = ledger.read(store);
    expect(l.runs.map((r) => [r.id, r.parentId, r.idempotencyKey, r.status, r.fileIds])).toEqual([
      ['r1', null, 'key with spaces', 'requires_action', []],
      ['r2', 'r1', 'resp', 'completed', ['file_1']],
      ['r3', null, null, 'running', []],
    ]);
    const bytes = (f: FileRecord) => Buffer.concat([...fileChunks(f)]);
    expect(l.files).toEqual([
      { id: 'file_1', runId: 'r2', sha256: sha(bytes(file)), bytes: 200_000 },
      { id: 'file_2', runId: null, sha256: sha(bytes(orphan)), bytes: bytes(orphan).length },
    ]);
    // Same record, same answer (hashed once).
    expect(ledger.read(store).files).toEqual(l.files);
  });
});
