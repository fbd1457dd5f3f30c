import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimStateInUseError, lockState, readHolder, sharedSim } from '../../src/sim/state-lock.js';
import { tempDir } from '../support/cli.js';

/** The pid of a process that has ended. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('lockState', () => {
  it('takes the lock, refuses a second holder while held, and lets go on release', () => {
    const state = join(tempDir(), 'r.db.sim.json');
    const lock = lockState(state);
    expect(readHolder(`${state}.lock`)).toEqual({ pid: process.pid, host: hostname(), serving: null });
    const again = (() => {
      try {
        lockState(state);
        return null;
      } catch (e) {
        return e;
      }
    })();
    expect(again).toBeInstanceOf(SimStateInUseError);
    expect((again as SimStateInUseError).holder.pid).toBe(process.pid);
    lock.release();
    expect(existsSync(`${state}.lock`)).toBe(false);
    lockState(state).release();
  });

  it('takes over a lock left by a process gone from this host, and a half-written one', () => {
    const state = join(tempDir(), 'r.db.sim.json');
    writeFileSync(`${state}.lock`, JSON.stringify({ pid: deadPid(), host: hostname(), serving: null }));
    const lock = lockState(state);
    expect(readHolder(`${state}.lock`)?.pid).toBe(process.pid);
    lock.release();
    writeFileSync(`${state}.lock`, '{"pid":');
    lockState(state).release();
  });

  it('takes a holder on another host as alive (its pid cannot be checked from here)', () => {
    const state = join(tempDir(), 'r.db.sim.json');
    writeFileSync(`${state}.lock`, JSON.stringify({ pid: deadPid(), host: 'elsewhere.invalid', serving: null }));
    expect(() => lockState(state)).toThrow(SimStateInUseError);
  });

  it('says where it serves, for sharedSim; nothing is shared by a dead or a non-serving holder', () => {
    const state = join(tempDir(), 'r.db.sim.json');
    const lock = lockState(state);
    expect(sharedSim(state)).toBeNull();
    lock.serve({ url: 'http://127.0.0.1:1/api/v1', key: 'k' });
    expect(sharedSim(state)).toEqual({ url: 'http://127.0.0.1:1/api/v1', key: 'k' });
    lock.release();
    expect(sharedSim(state)).toBeNull();
    writeFileSync(`${state}.lock`, JSON.stringify({ pid: deadPid(), host: hostname(), serving: { url: 'http://x/api/v1', key: 'k' } }));
    expect(sharedSim(state)).toBeNull();
    expect(readFileSync(`${state}.lock`, 'utf8')).toContain('"pid"');
  });
});
