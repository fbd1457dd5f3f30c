// Issue 16: resume with 10,000 runs in flight. A 20,000-item batch is killed (SIGKILL) once
// 10,000 runs are in flight and resumed after they finished at the service: every one of
// them re-attached (its end recorded) within 2 s of the spawn of `resq resume`. Runs last
// 60 s so the first wave is all in flight before the kill (admitting 10,000 took 8-33 s on
// a loaded 2-core machine); the kill comes when 10,000 are running at once, the count printed
// in its row (resq fits 10,000 streams under 20,000 open files: src/runner/descriptor-fit.ts). One round (each takes 1-1.5 minutes); --rounds N for a median.
// Beside it (issue 23) the floor: a new process that only reads each of those runs once.
import { benchArgs } from '../lib/args.js';
import { emitRows, fmt, quantile, row } from '../lib/report.js';
import { resumeRound, type Round } from '../lib/resume-round.js';

const args = benchArgs();
const inFlight = args.quick ? 2000 : 10_000;
const n = inFlight * 2;
const rounds = Number(args.get('rounds', '1'));
const runMs = args.quick ? 20_000 : 60_000;
const results: Round[] = [];
for (let i = 0; i < rounds; i++) {
  results.push(await resumeRound({ n, inFlight, runMs, cpuProfDir: args.has('cpu-prof') ? args.get('cpu-prof-dir', '/tmp') : undefined }));
}
const med = (k: keyof Round): number => quantile(results.map((r) => r[k]), 0.5);
const all = (k: keyof Round): string => results.map((r) => fmt(r[k] / 1000, 2)).join(', ');
const name = `resume ${n / 1000}k items, ${inFlight} in flight, median of ${rounds}`;
const reattach = med('reattachMs');
emitRows([
  row(name, `all ${inFlight} in-flight runs re-attached`, fmt(reattach / 1000, 2, 's'), `rounds: ${all('reattachMs')} s`, 2000 / reattach, '<= 2 s', args.quick ? null : reattach <= 2000),
  // Issue 39: the resume within 1.5× its floor (the ratio of the medians; issue 32 asked 1.3×).
  row(name, 'the floor: a new process reads each of them (GET, no state)', fmt(med('floorMs') / 1000, 2, 's'), `resq / floor ${fmt(reattach / med('floorMs'), 2)}; rounds ${results.map((r) => fmt(r.reattachMs / r.floorMs, 2)).join(', ')}`, reattach / med('floorMs'), 'resq/floor <= 1.5', args.quick ? null : reattach / med('floorMs') <= 1.5),
  row(name, 'of the floor: spawn → modules loaded', fmt(med('floorStartMs') / 1000, 2, 's'), 'resq: CLI start → runner start, below'),
  row(name, 'simulator CPU per run read: floor / resq', `${fmt(med('simPerReadFloorMs') * 1000, 0)} / ${fmt(med('simPerReadResqMs') * 1000, 0)} µs`, 'resq: its new admissions meanwhile included'),
  row(name, 'runs in flight when the first run was killed (SIGKILL)', results.map((r) => String(r.inFlightAtKill)).join(', '), `asked ${inFlight}`),
  row(name, 'first new submission', fmt(med('firstNewMs') / 1000, 2, 's'), `rounds: ${all('firstNewMs')} s`),
  row(name, 'CLI start → runner start event', fmt(med('startMs') / 1000, 2, 's'), 'of the above: node, modules, database'),
]);
