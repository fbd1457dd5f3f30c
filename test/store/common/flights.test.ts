import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runGoing, runNotGoing } from '../../../src/store/common/flights.js';
import { takesSlot } from '../../../src/store/common/claim-plan.js';
import { ACTIVE_STATES } from '../../../src/store/item-states.js';

/**
 * Every flight a worker can leave behind: a state in flight, and its holder as the store
 * writes it — a lease set with its owner (claim, takeover, heartbeat), given up (release,
 * retire: owner gone, lease 0), run out (a dead worker: owner kept, lease past), or never
 * held (an answer to a held item starts a flight with neither).
 */
const holders = [
  { owner: 'w1', lease_until: 10_000 },
  { owner: 'w1', lease_until: 1 },
  { owner: null, lease_until: 0 },
  { owner: null, lease_until: null },
];

describe('a run is going', () => {
  it('is one rule: runGoing and runNotGoing split every flight the store writes, and agree with a claim`s takesSlot', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE flights (item_key INTEGER PRIMARY KEY, state TEXT NOT NULL, owner TEXT, lease_until INTEGER)');
    const add = db.prepare('INSERT INTO flights (state, owner, lease_until) VALUES (?, ?, ?)');
    for (const state of ACTIVE_STATES) for (const h of holders) add.run(state, h.owner, h.lease_until);
    const keys = (where: string): number[] => db.prepare(`SELECT item_key FROM flights f WHERE ${where} ORDER BY item_key`).pluck().all() as number[];
    const going = keys(runGoing('f'));
    const idle = keys(runNotGoing('f'));
    expect(keys(runGoing())).toEqual(going);
    expect(keys(runNotGoing())).toEqual(idle);
    // One flight alone has no run going: answered, never held.
    const rows = db.prepare('SELECT * FROM flights ORDER BY item_key').all() as { item_key: number; state: string; owner: string | null; lease_until: number | null }[];
    expect(idle).toEqual(rows.filter((r) => r.state === 'waiting' && r.owner === null && r.lease_until === null).map((r) => r.item_key));
    expect([...going, ...idle].sort((a, b) => a - b)).toEqual(rows.map((r) => r.item_key));
    for (const r of rows) expect(takesSlot({ state: r.state as never, leaseUntil: r.lease_until })).toBe(idle.includes(r.item_key));
    db.close();
  });
});
