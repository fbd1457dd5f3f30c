import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchRunner, loadBatch } from '../../../src/runner/index.js';
import { exportLines } from '../../../src/runner/operations/export.js';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { openStore } from '../../../src/store/index.js';
import { tempDir } from '../../support/cli.js';
import { testClient, testSettings } from '../../support/in-process.js';

async function collect(lines: AsyncIterable<string>): Promise<string> {
  let s = '';
  for await (const l of lines) s += l;
  return s;
}

describe('exportLines', () => {
  let sim: Sim;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 10 });
  });
  afterAll(async () => sim.close());

  it('streams the rows as JSONL or CSV in file order, and the rows --skip-invalid left out', async () => {
    const dir = tempDir();
    const questions = join(dir, 'q.csv');
    writeFileSync(questions, 'id,question,topic\nb,second,x\na,first,y\nbad,,z\n');
    const store = await openStore(join(dir, 'resq.db'));
    const { batch } = await loadBatch({ store, questions, settings: testSettings(2), policy: null, baseUrl: sim.url, skipInvalid: true });
    const client = testClient(sim);
    await new BatchRunner({ store, client, batch, policy: null }).run();

    const rows = (await collect(exportLines(store, batch))).trim().split('\n').map((l) => JSON.parse(l) as { id: string; status: string; meta: object });
    expect(rows.map((r) => [r.id, r.status])).toEqual([['b', 'completed'], ['a', 'completed']]);
    expect(rows[0]?.meta).toEqual({ topic: 'x' });

    const csv = parse(await collect(exportLines(store, batch, { format: 'csv' })), { columns: true }) as Record<string, string>[];
    expect(csv.map((r) => r.id)).toEqual(['b', 'a']);
    expect(csv[1]?.status).toBe('completed');

    expect(Object.keys(csv[0]!).slice(0, 3)).toEqual(['id', 'question', 'meta.topic']);
    expect(csv.map((r) => r['meta.topic'])).toEqual(['x', 'y']);
    // Nothing failed: --failed exports no row, and CSV still its header.
    expect(await collect(exportLines(store, batch, { failed: true }))).toBe('');
    expect((await collect(exportLines(store, batch, { format: 'csv', failed: true }))).trim().split('\n')).toHaveLength(1);

    const invalid = (await collect(exportLines(store, batch, { invalid: true }))).trim().split('\n').map((l) => JSON.parse(l) as object);
    expect(invalid).toEqual([expect.objectContaining({ file: questions, line: 4, field: 'question' })]);
    await client.close();
    await store.close();
  });
});
