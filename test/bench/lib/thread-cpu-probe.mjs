// Preloaded into a process being profiled (`--import` this file, RESQ_THREAD_CPU=<path>):
// at exit it writes the main thread's own CPU (process.threadCpuUsage(), µs) to that path,
// so the profile's shares can be put on the main thread's real CPU: V8's sampler ticks on
// the wall clock, so on a loaded machine its samples also cover time the thread waited.
import { writeFileSync } from 'node:fs';

const path = process.env.RESQ_THREAD_CPU;
if (path) {
  process.once('exit', () => {
    const u = process.threadCpuUsage();
    writeFileSync(path, JSON.stringify({ user: u.user, system: u.system }));
  });
}
