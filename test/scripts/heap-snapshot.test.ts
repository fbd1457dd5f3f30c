import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { heapCensus, perRunDiff } from '../bench/lib/heap-snapshot.js';

const dir = mkdtempSync(join(tmpdir(), 'resq-heap-census-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real V8 heap snapshot of a fresh Node process holding `n` objects, each with one closure of its own. */
function snapshotHolding(n: number): string {
  const path = join(dir, `held-${n}.heapsnapshot`);
  const script = `class Held { constructor(i) { this.i = i; this.f = () => this.i; } }
globalThis.kept = Array.from({ length: ${n} }, (_, i) => new Held(i));
require('node:v8').writeHeapSnapshot(${JSON.stringify(path)});`;
  execFileSync(process.execPath, ['-e', script]);
  return path;
}

describe('heapCensus', () => {
  it('counts, per object held, its closure and its constructor from real snapshots', () => {
    const few = heapCensus(snapshotHolding(1));
    const many = heapCensus(snapshotHolding(1001));
    const closures = (many.count.get('closure') ?? 0) - (few.count.get('closure') ?? 0);
    expect(closures).toBeGreaterThanOrEqual(1000);
    expect(closures).toBeLessThan(1100);
    const top = perRunDiff(many, few, 1000, 50);
    const held = top.find((t) => t.key === 'object:Held');
    expect(held?.count).toBe(1);
    expect(held!.bytes).toBeGreaterThan(0);
    expect(many.totalBytes).toBeGreaterThan(few.totalBytes);
  });
});
