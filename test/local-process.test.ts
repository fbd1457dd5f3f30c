import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isGoneHere, localProcessAlive, processStart } from '../src/local-process.js';
import { tempDir } from './support/cli.js';

const linux = process.platform === 'linux';
const bootId = linux ? readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() : '';

let children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children = [];
});

/** A long-running program that is not resq (killed after the test). */
function sleeper(command = 'sleep'): ChildProcess {
  const c = spawn(command, ['60'], { stdio: 'ignore' });
  children.push(c);
  return c;
}

/** Kills a child with SIGKILL and waits until it is gone. */
async function killed(c: ChildProcess): Promise<number> {
  const exited = new Promise((r) => c.once('exit', r));
  c.kill('SIGKILL');
  await exited;
  return c.pid!;
}

describe.runIf(linux)('local-process', () => {
  it('the start identity is the boot id and field 22 (starttime) of /proc/PID/stat, the same on every read', () => {
    const me = processStart(process.pid);
    expect(me).toMatch(new RegExp(`^${bootId}:\\d+$`));
    expect(processStart(process.pid)).toBe(me);
    // Field 22 counted in full: the command name (field 2) has no space here.
    const fields = readFileSync(`/proc/${process.pid}/stat`, 'utf8').split(' ');
    expect(me).toBe(`${bootId}:${fields[21]}`);
  });

  it('a command name with spaces and parentheses does not shift the fields', async () => {
    const odd = join(tempDir(), 'a) b (c');
    copyFileSync('/bin/sleep', odd);
    spawnSync('chmod', ['+x', odd]);
    const c = sleeper(odd);
    await new Promise((r) => c.once('spawn', r));
    const stat = readFileSync(`/proc/${c.pid}/stat`, 'utf8');
    expect(stat).toContain('(a) b (c)');
    const id = processStart(c.pid!);
    // Split on spaces from the start, field 22 would be another field (the name's two spaces shift it).
    expect(id).not.toBe(`${bootId}:${stat.split(' ')[21]}`);
    // Another child started later has a later (or equal) start time: the field read is the start time.
    const starttime = Number(id?.split(':')[1]);
    expect(Number(processStart(process.pid)!.split(':')[1])).toBeLessThanOrEqual(starttime);
    expect(localProcessAlive(c.pid!, id)).toBe(true);
  });

  it('a running process with its own start identity is alive; with none recorded, its pid answers for it', async () => {
    const c = sleeper();
    await new Promise((r) => c.once('spawn', r));
    expect(localProcessAlive(c.pid!, processStart(c.pid!))).toBe(true);
    expect(localProcessAlive(c.pid!, null)).toBe(true);
    expect(localProcessAlive(process.pid, processStart(process.pid))).toBe(true);
  });

  it('a process killed with SIGKILL is gone', async () => {
    const c = sleeper();
    await new Promise((r) => c.once('spawn', r));
    const start = processStart(c.pid!);
    const pid = await killed(c);
    expect(localProcessAlive(pid, start)).toBe(false);
    expect(localProcessAlive(pid, null)).toBe(false);
    expect(processStart(pid)).toBeNull();
  });

  it('a pid reused by another program, or by any after a reboot, is told apart by its start identity', async () => {
    const c = sleeper();
    await new Promise((r) => c.once('spawn', r));
    const real = processStart(c.pid!)!;
    const starttime = real.split(':')[1]!;
    // The worker that had this pid started at another time: another program has its pid now.
    expect(localProcessAlive(c.pid!, `${bootId}:${Number(starttime) + 1}`)).toBe(false);
    // The same start time in another boot: a pid reused after a reboot.
    expect(localProcessAlive(c.pid!, `00000000-0000-0000-0000-000000000000:${starttime}`)).toBe(false);
  });

  it('pids that are not a process (0 and below name process groups) are never alive', () => {
    expect(localProcessAlive(0, null)).toBe(false);
    expect(localProcessAlive(-1, null)).toBe(false);
    expect(localProcessAlive(1.5, null)).toBe(false);
    expect(processStart(0)).toBeNull();
  });

  it('isGoneHere judges only the workers of this host: another host is left to its heartbeat', async () => {
    const c = sleeper();
    await new Promise((r) => c.once('spawn', r));
    const start = processStart(c.pid!);
    const pid = await killed(c);
    expect(isGoneHere({ host: hostname(), pid, pidStart: start })).toBe(true);
    expect(isGoneHere({ host: 'another-host', pid, pidStart: start })).toBe(false);
    expect(isGoneHere({ host: 'here', pid, pidStart: start }, 'here')).toBe(true);
    expect(isGoneHere({ host: hostname(), pid: process.pid, pidStart: processStart(process.pid) })).toBe(false);
  });
});
