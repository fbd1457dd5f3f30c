// Scenario 5: a 100,000-item batch with 1,000 runs in flight is killed (SIGKILL) and
// resumed. By the time `resq resume` starts, the runs that were in flight have finished at
// the service, so re-attaching one means reading it and recording its end. Measured from
// the spawn of `resq resume`: every run that was in flight re-attached (recorded), and the
// first new submission (an item that had no run yet, now running). Median of 3 rounds.
import { benchArgs } from '../lib/args.js';
import { emitRows, fmt, quantile, row } from '../lib/report.js';
import { resumeRound, type Round } from '../lib/resume-round.js';

const args = benchArgs();
const n = args.quick ? 20_000 : 100_000;
const inFlight = args.quick ? 200 : 1000;
const rounds = args.quick ? 1 : 3;
const runMs = 5000;
const oneRound = (): Promise<Round> => resumeRound({ n, inFlight, runMs, cpuProfDir: args.has('cpu-prof') ? args.get('cpu-prof-dir', '/tmp') : undefined });

const results: Round[] = [];
for (let i = 0; i < rounds; i++) results.push(await oneRound());
const med = (k: keyof Round): number => quantile(results.map((r) => r[k]), 0.5);
const all = (k: keyof Round): string => results.map((r) => fmt(r[k] / 1000, 2)).join(', ');
const name = `resume ${n / 1000}k items, ${inFlight} in flight, median of ${rounds}`;
const reattach = med('reattachMs');
emitRows([
  row(name, `all ${inFlight} in-flight runs re-attached`, fmt(reattach / 1000, 2, 's'), `rounds: ${all('reattachMs')} s`, null, '<= 2 s', reattach <= 2000),
  row(name, 'the floor: a new process reads each of them (GET, no state)', fmt(med('floorMs') / 1000, 2, 's'), `resq / floor ${fmt(reattach / med('floorMs'), 2)}`, null),
  row(name, 'of the floor: spawn → modules loaded', fmt(med('floorStartMs') / 1000, 2, 's'), 'resq: CLI start → runner start, below'),
  row(name, 'simulator CPU per run read: floor / resq', `${fmt(med('simPerReadFloorMs') * 1000, 0)} / ${fmt(med('simPerReadResqMs') * 1000, 0)} µs`, 'resq: its new admissions meanwhile included'),
  row(name, 'first new submission', fmt(med('firstNewMs') / 1000, 2, 's'), `rounds: ${all('firstNewMs')} s`),
  row(name, 'CLI start → runner start event', fmt(med('startMs') / 1000, 2, 's'), 'of the above: node, modules, database'),
]);
