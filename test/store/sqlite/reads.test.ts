import { describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import type { NewBatch } from '../../../src/store/shapes.js';

const B = 'rb';
const BATCH: NewBatch = {
  id: B, name: 'reads', kind: 'runs', sourcePath: '/q.csv', sourceSha256: 'sha', baseUrl: 'http://svc/api/v1',
  settings: { concurrency: 4, follow: 'sse', download: { enabled: false, concurrency: 2, out: null }, pipelineFile: null, service: 'sim' }, policy: null,
};

describe('SQLite reads of items in flight', () => {
  it('items in flight (their rows queued, out of the state and sort indexes) are found through their flights: no reader walks the batch', async () => {
    const store = SqliteStore.open(':memory:');
    try {
      const loader = await store.beginBatchLoad(BATCH);
      for (let i = 0; i < 50; i++) await loader.add({ id: `i${i}`, seq: i, line: i + 2, question: `q${i}?`, threadKey: null, meta: {} });
      await loader.flush();
      await loader.commit([]);
      const w = (await store.registerWorker(B, { host: 'h', pid: 1 })).id;
      // Every statement the store prepares from here, by its text.
      const seen: string[] = [];
      const prepare = store.db.prepare.bind(store.db);
      store.db.prepare = ((sql: string) => {
        seen.push(sql);
        return prepare(sql);
      }) as typeof store.db.prepare;
      await store.claimItems(B, { workerId: w, leaseMs: 60_000, max: 3, cap: 3, afterSeq: -1 });
      expect((await store.listItems(B, { states: ['submitting', 'held'] })).map((i) => i.id)).toEqual(['i0', 'i1', 'i2']);
      expect((await store.itemPage(B, { limit: 10, sort: 'updated', desc: true })).items.map((i) => i.id).sort()).toEqual(['i0', 'i1', 'i2']);
      expect((await store.itemPage(B, { limit: 10, states: ['submitting'] })).items.map((i) => i.id)).toEqual(['i0', 'i1', 'i2']);
      store.db.prepare = prepare;
      const plan = (marker: string): string => {
        const sql = seen.find((s) => s.includes(marker));
        expect(sql, marker).toBeDefined();
        const params = new Array((sql!.match(/\?/g) ?? []).length).fill(null);
        return (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('\n');
      };
      // The claim's page: items_for_claim from the cursor, each row's flight by its key.
      const claim = plan('INDEXED BY items_for_claim WHERE batch_num = ? AND seq > ?');
      expect(claim).toMatch(/SEARCH items USING INDEX items_for_claim \(batch_num=\? AND seq>\?\)/);
      expect(claim).toMatch(/SEARCH nf USING INTEGER PRIMARY KEY \(rowid=\?\)/);
      // A list of states in flight: the keys from the state index and the flights, each row by its key.
      const list = plan('UNION ALL SELECT item_key FROM flights');
      expect(list).toMatch(/SEARCH i USING INTEGER PRIMARY KEY \(rowid=\?\)/);
      expect(list).toMatch(/SEARCH items USING COVERING INDEX items_for_state_pages \(batch_num=\? AND state=\?\)/);
      expect(list).toMatch(/SCAN flights/);
      expect(list).not.toMatch(/SCAN i\b|items_for_claim/);
      // The sort by latest change: items_for_web_sort merged with the flights.
      const sorted = plan('FROM items i INDEXED BY items_for_web_sort');
      expect(sorted).toMatch(/MERGE \(UNION ALL\)/);
      expect(sorted).toMatch(/SEARCH i USING INDEX items_for_web_sort \(batch_num=\?\)/);
      expect(sorted).toMatch(/SCAN f\b/);
    } finally {
      await store.close();
    }
  });
});
