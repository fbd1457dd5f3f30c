import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../src/sim/index.js';
import { ALICE, BOB, createRun, finish } from './helpers.js';

let sim: Sim;
beforeAll(async () => {
  sim = await startSim({ defaultDurationMs: 10 });
});
afterEach(() => sim.faults.clear());
afterAll(() => sim.close());

const DAY = 86_400_000;

function get(url: string, key: string | null = ALICE, method = 'GET'): Promise<Response> {
  return fetch(url, { method, headers: key ? { authorization: `Bearer ${key}` } : {} });
}

async function filesOf(input: string): Promise<any[]> {
  const run = await finish(sim, (await createRun(sim, input)).id);
  return run.output.tool_results.flatMap((t: any) => t.files);
}

describe('GET /files/{id}', () => {
  it('serves each kind with its media type, length and plausible bytes', async () => {
    const files = await filesOf('make files @files=md,csv,png,pdb');
    expect(files.map((f) => [f.role, f.name])).toEqual([
      ['report', 'report.md'],
      ['table', 'table.csv'],
      ['figure', 'figure.png'],
      ['structureId', 'structure.pdb'],
    ]);
    const want: Record<string, RegExp> = { md: /^text\/markdown/, csv: /^text\/csv/, png: /^image\/png$/, pdb: /^chemical\/x-pdb$/ };
    for (const f of files) {
      expect(f.url).toBe(`${sim.url}/files/${f.id}`);
      const res = await get(f.url);
      expect(res.status).toBe(200);
      const ext = f.name.split('.').pop();
      expect(res.headers.get('content-type')).toMatch(want[ext]!);
      const body = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get('content-length'))).toBe(body.length);
      if (ext === 'png') expect(body.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      if (ext === 'pdb') expect(body.toString()).toMatch(/^HEADER[\s\S]*\nATOM {2}[\s\S]*\nEND\n$/);
      if (ext === 'csv') expect(body.toString().split('\n')[0]).toBe('index,residue,plddt');
      if (ext === 'md') expect(body.toString()).toMatch(/^# /);
      const again = Buffer.from(await (await get(f.url)).arrayBuffer());
      expect(again.equals(body)).toBe(true);
    }
  });

  it('links the fold_protein output to its file', async () => {
    const run = await finish(sim, (await createRun(sim, 'fold it @files=pdb')).id);
    const fold = run.output.tool_results.find((t: any) => t.tool === 'fold_protein');
    expect(fold).toMatchObject({ type: 'tool_result', status: 'succeeded', output: { ok: true, residues: expect.any(Number), meanPlddt: expect.any(Number) } });
    expect(fold.output.structureId).toBe(fold.files[0].id);
  });

  it('honours :noname and @filename (percent-decoded)', async () => {
    const files = await filesOf('names @files=csv,png:noname,csv @filename=..%2F..%2Fetc%2Fpasswd%01');
    expect(files[0].name).toBe('../../etc/passwd\u0001');
    expect('name' in files[1]).toBe(false);
    expect(files[2].name).toBe('table-2.csv');
    expect((await get(files[0].url)).headers.get('content-disposition')).toContain("filename*=UTF-8''..%2F..%2Fetc%2Fpasswd%01");
  });

  it('answers HEAD with headers only', async () => {
    const [f] = await filesOf('head @files=csv');
    const res = await get(f.url, ALICE, 'HEAD');
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(0);
  });

  it('is 404 for another account, an unknown id, no key (401), and after 30 days', async () => {
    const [f] = await filesOf('private file @files=md');
    expect((await get(f.url, BOB)).status).toBe(404);
    expect((await get(`${sim.url}/files/file_nope`)).status).toBe(404);
    expect((await get(f.url, null)).status).toBe(401);
    sim.clock.advance(29 * DAY);
    expect((await get(f.url)).status).toBe(200);
    sim.clock.advance(2 * DAY);
    const gone = await get(f.url);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as any).error.code).toBe('not_found');
  });

  it('makes @size files of exactly that size, PNGs still valid', async () => {
    const files = await filesOf('sized @files=csv,png,pdb,md @size=100kb');
    for (const f of files) {
      const body = Buffer.from(await (await get(f.url)).arrayBuffer());
      expect(body.length).toBe(100 * 1024);
    }
    const png = Buffer.from(await (await get(files[1].url)).arrayBuffer());
    expect(png.subarray(-12).subarray(4, 8).toString('latin1')).toBe('IEND');
  });

  // Its memory bound (bytes generated as they are sent, never the whole file) is measured by
  // the bench's `downloads` scenario: the simulator process's peak RSS while it serves 1 GiB.
  it('streams a 50 MB file: every byte, in chunks, hashing as the ledger says', async () => {
    const [f] = await filesOf('big @files=csv @size=50mb');
    const res = await get(f.url);
    expect(Number(res.headers.get('content-length'))).toBe(50 * 1024 * 1024);
    const hash = createHash('sha256');
    let total = 0;
    let chunks = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      total += chunk.length;
      chunks++;
    }
    expect(total).toBe(50 * 1024 * 1024);
    expect(chunks).toBeGreaterThan(1);
    expect(sim.ledger().files.find((x) => x.id === f.id)).toMatchObject({ bytes: total, sha256: hash.digest('hex') });
  });

  it('cuts a body halfway with dropAfter', async () => {
    const [f] = await filesOf('cut @files=csv @size=2mb');
    sim.faults.set({ dropAfter: 1, routes: ['GET /files/:id'] });
    const res = await get(f.url);
    expect(res.status).toBe(200);
    await expect(res.arrayBuffer()).rejects.toThrow();
    expect(sim.counters().faultsInjected.dropAfter).toBe(1);
  });
});
