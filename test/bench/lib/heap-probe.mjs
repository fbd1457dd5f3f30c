// Preloaded into a process being measured (`--import` this file, RESQ_HEAP_PROBE=<dir>,
// with --expose-gc): on SIGUSR2 it collects garbage, writes process.memoryUsage() to
// <dir>/heap.json and a heap snapshot to <dir>/heap.heapsnapshot, then <dir>/done.
import { writeFileSync } from 'node:fs';

const dir = process.env.RESQ_HEAP_PROBE;
if (dir) {
  process.on('SIGUSR2', async () => {
    const { writeHeapSnapshot } = await import('node:v8');
    globalThis.gc?.();
    const m = process.memoryUsage();
    writeFileSync(`${dir}/heap.json`, JSON.stringify({ heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, rss: m.rss }));
    writeHeapSnapshot(`${dir}/heap.heapsnapshot`);
    writeFileSync(`${dir}/done`, '');
  });
}
