import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/store/postgres/migrations.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { pgAvailable } from './pg-server.js';
import { sharedPgServer } from './pg-shared.js';
import { migratedTemplate } from './pg-template.js';

describe.skipIf(!pgAvailable())('migratedTemplate', () => {
  it("gives copies with the adapter's whole schema, each its own: opening one migrates nothing, and what one holds the others do not", async () => {
    const pg = await sharedPgServer();
    try {
      const tpl = await migratedTemplate(pg, 'template_probe');
      const migrationRows = (db: string) => pg.psql(['-d', db, '-c', 'SELECT count(*), max(applied_at) FROM _migrations']);
      const applied = await migrationRows(tpl);
      expect(Number(applied.split('|')[0])).toBe(migrations.length);
      const [a, b] = [await pg.createDatabase('template_copy_a', tpl), await pg.createDatabase('template_copy_b', tpl)];
      const store = await PostgresStore.open(a);
      try {
        await store.beginBatchLoad({ id: 'b1', name: 'only-in-a', kind: 'runs', sourcePath: '/q.csv', sourceSha256: 'abc', baseUrl: null, settings: { concurrency: 1 } as never, policy: null }).then((l) => l.commit([]));
        expect(await store.findBatch('only-in-a')).not.toBeNull();
      } finally {
        await store.close();
      }
      // The copy's migrations are the template's, applied then: none ran again on opening it.
      expect(await migrationRows('template_copy_a')).toBe(applied);
      expect((await pg.psql(['-d', 'template_copy_b', '-c', 'SELECT count(*) FROM batches'])).trim()).toBe('0');
      expect((await pg.psql(['-d', tpl, '-c', 'SELECT count(*) FROM batches'])).trim()).toBe('0');
      expect(b).toMatch(/\/template_copy_b$/);
    } finally {
      await pg.stop();
    }
  });
});
