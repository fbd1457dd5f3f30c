import { describe, expect, it } from 'vitest';
import { DatabaseWaitError, DbWait, waitDelayMs } from '../../src/store/db-wait.js';
import { virtualClock } from '../support/virtual-clock.js';

const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
const transient = (e: unknown): string | null => ((e as { code?: string }).code === 'ECONNRESET' ? 'ECONNRESET' : null);

/** An operation that fails `times` times with a reset, then answers `value`. */
function flaky<T>(times: number, value: T): { fn: () => Promise<T>; calls: () => number } {
  let n = 0;
  return { fn: async () => (++n <= times ? Promise.reject(reset()) : value), calls: () => n };
}

describe('DbWait: one policy for a database that fails in passing', () => {
  it('runs the operation again until it answers, and says the first wait of the outage once, with the bound', async () => {
    const said: string[] = [];
    const w = new DbWait('postgres://db/x', { waitMs: 60_000, clock: virtualClock(), onWait: (m) => said.push(m) });
    const op = flaky(5, 'ok');
    const other = flaky(3, 'also');
    expect(await Promise.all([w.run(op.fn, transient), w.run(other.fn, transient)])).toEqual(['ok', 'also']);
    expect([op.calls(), other.calls()]).toEqual([6, 4]);
    expect(said).toEqual(['the database postgres://db/x failed (ECONNRESET): waiting for it up to 60 s']);
  });

  it('a new outage after an answer is said again', async () => {
    const said: string[] = [];
    const w = new DbWait('db', { clock: virtualClock(), onWait: (m) => said.push(m) });
    await w.run(flaky(1, 1).fn, transient);
    await w.run(flaky(0, 2).fn, transient);
    await w.run(flaky(2, 3).fn, transient);
    expect(said).toHaveLength(2);
  });

  it('past the bound it stops with DatabaseWaitError naming the database, the reason and the bound', async () => {
    const clock = virtualClock();
    const w = new DbWait('db.sqlite', { waitMs: 5_000, clock });
    const start = clock.now();
    const err = await w.run(flaky(Infinity, 0).fn, transient).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseWaitError);
    expect((err as DatabaseWaitError).code).toBe('RESQ_DATABASE');
    expect((err as Error).message).toMatch(/^the database db\.sqlite failed for 5 s \(ECONNRESET: read ECONNRESET\); stopped with every item as stored/);
    expect(clock.now() - start).toBeGreaterThanOrEqual(5_000);
    expect(clock.now() - start).toBeLessThan(5_000 + 1_000);
  });

  it('a failure that is not in passing is thrown at once, untried again', async () => {
    const w = new DbWait('db', { clock: virtualClock() });
    let n = 0;
    const bad = Object.assign(new Error('syntax error'), { code: '42601' });
    await expect(w.run(async () => (n++, Promise.reject(bad)), transient)).rejects.toBe(bad);
    expect(n).toBe(1);
  });

  it('pauses grow from 25 ms to at most 1 s', () => {
    expect(waitDelayMs(0, () => 0)).toBe(12);
    expect(waitDelayMs(0, () => 1)).toBe(25);
    expect(waitDelayMs(10, () => 1)).toBe(1000);
    expect(waitDelayMs(10, () => 0)).toBe(500);
  });
});
