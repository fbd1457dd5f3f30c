import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { ExportRow } from '../../src/runner/index.js';
import type { LedgerRun, SimLedger } from '../../src/sim/index.js';
import { expectedFiles, type FixtureItem } from './batch-fixture.js';

/**
 * The simulator's chain of runs for a question: the one run POST /runs made for it (exactly
 * one, or the expectation fails) and, after it, the run each respond made, in order.
 */
export function chainOf(ledger: SimLedger, question: string): LedgerRun[] {
  const firsts = ledger.runs.filter((r) => r.input === question && r.parentId === null);
  expect(firsts.map((r) => r.id), `runs POST /runs made for ${question}`).toHaveLength(1);
  const chain = [firsts[0]!];
  for (;;) {
    const next = ledger.runs.filter((r) => r.parentId === chain.at(-1)!.id);
    expect(next.length, `runs made by answering ${chain.at(-1)!.id}`).toBeLessThanOrEqual(1);
    if (next.length === 0) return chain;
    chain.push(next[0]!);
  }
}

/** The simulator's counters after a fixture batch: each question admitted once, each pause answered by one run. */
export function expectAdmittedOnce(counters: { runsAdmitted: number; respondRuns: number; admissionsByInput: Record<string, number> }, items: readonly FixtureItem[]): void {
  expect(counters.runsAdmitted).toBe(items.length);
  for (const it of items) expect(counters.admissionsByInput[it.question], it.question).toBe(1);
  expect(counters.respondRuns).toBe(items.reduce((n, it) => n + it.pauses, 0));
}

/**
 * The export of a fixture batch that ran to its end, checked against the simulator's own
 * record (`sim.ledger()`), not against what resq recorded:
 * - every item in its expected state, one decision per pause, its answer saying what the
 *   decisions were;
 * - its run ids exactly the simulator's chain for its question (one run POST /runs made,
 *   then one respond run per pause), each made by a request with an idempotency key whose
 *   requests all carried one body;
 * - as many files as its question asks for (`@files=`), exactly the files the chain's runs
 *   made, each on disk with the length and sha256 of the bytes the simulator serves for it.
 * `bodies: false` where the requests' bodies were tallied by simulators no longer running (a
 * `--sim` batch over several killed processes: its state file keeps the runs, their keys and
 * files, not the bodies each request carried).
 */
export function expectBatchWhole(rows: readonly ExportRow[], items: readonly FixtureItem[], ledger: SimLedger, o: { bodies?: boolean } = {}): void {
  expect(rows).toHaveLength(items.length);
  const served = new Map(ledger.files.map((f) => [f.id, f]));
  for (const it of items) {
    const row = rows.find((r) => r.id === it.id);
    expect(row?.status, it.id).toBe(it.state);
    expect(row?.decisions, it.id).toHaveLength(it.pauses);
    for (const s of it.expect) expect(row?.text, it.id).toContain(s);

    const chain = chainOf(ledger, it.question);
    expect(chain, `${it.id}: one run, then one respond run per pause`).toHaveLength(it.pauses + 1);
    expect(row?.run_ids, it.id).toEqual(chain.map((r) => r.id));
    for (const run of chain) {
      expect(run.idempotencyKey, `${it.id} run ${run.id} made without an idempotency key`).not.toBeNull();
      if (o.bodies === false) continue;
      const key = ledger.keys.find((k) => k.madeId === run.id);
      expect(key?.bodies, `${it.id} run ${run.id}: bodies sent with its key`).toHaveLength(1);
    }

    const made = chain.flatMap((r) => r.fileIds);
    expect(made, `${it.id}: files its runs made`).toHaveLength(expectedFiles(it));
    expect((row?.files ?? []).map((f) => f.id).sort(), `${it.id}: files exported`).toEqual([...made].sort());
    for (const f of row?.files ?? []) {
      expect(f.status, `${it.id} ${f.id}`).toBe('downloaded');
      const want = served.get(f.id);
      const bytes = readFileSync(f.path ?? '');
      expect({ bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }, `${it.id} ${f.id} ${f.path}`).toEqual({
        bytes: want?.bytes,
        sha256: want?.sha256,
      });
    }
  }
}
