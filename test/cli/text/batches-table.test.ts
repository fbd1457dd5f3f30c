import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { batchLine, formatBatches } from '../../../src/cli/text/batches-table.js';

const counts = { queued: 2, submitting: 0, running: 1, waiting: 0, held: 1, completed: 5, failed: 1, error: 0, cancelled: 0 };

describe('batches table', () => {
  it('one aligned row per batch with counts, cost, files on disk and live workers', () => {
    const line = batchLine({
      batch: { id: 'i', name: 'demo', kind: 'runs', sourcePath: '', sourceSha256: '', baseUrl: null, settings: {} as never, policy: null, totalItems: 10, invalidRows: [], createdAt: '2026-11-23T07:39:00.000Z', updatedAt: '', cancelledAt: null },
      counts,
      approvedCost: 12,
      files: { pending: 1, downloaded: 3, failed: 0, expired: 0, missing: 0 },
      workers: [{ id: 'w', batchId: 'i', host: 'h', pid: 1, pidStart: null, startedAt: '', heartbeatAt: 0, items: 1 }],
    });
    const text = formatBatches([line]);
    expect(text.split('\n')[1]).toBe('demo   runs  2026-11-23 07:39  10     5 done, 1 failed, 1 held, 1 in flight, 2 queued  12    3/4    1');
  });
  it('counts live workers only: one of this host whose process ended is not', () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const w = { batchId: 'i', pidStart: null, startedAt: '', heartbeatAt: 0, items: 1 };
    const line = batchLine({
      batch: { id: 'i', name: 'demo', kind: 'runs', sourcePath: '', sourceSha256: '', baseUrl: null, settings: {} as never, policy: null, totalItems: 10, invalidRows: [], createdAt: '2026-11-23T07:39:00.000Z', updatedAt: '', cancelledAt: null },
      counts,
      approvedCost: 0,
      files: { pending: 0, downloaded: 0, failed: 0, expired: 0, missing: 0 },
      workers: [
        { ...w, id: 'alive', host: hostname(), pid: process.pid },
        { ...w, id: 'dead', host: hostname(), pid: dead },
        { ...w, id: 'far', host: 'another-host', pid: dead },
      ],
    });
    expect(line.workers).toBe(2);
  });
  it('says how to start when there is none', () => {
    expect(formatBatches([])).toContain('resq run');
  });
});
