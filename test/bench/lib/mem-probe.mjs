// Preloaded into a process being measured (`--import` this file, RESQ_MEM_PROBE=<path>):
// every RESQ_MEM_PROBE_MS (default 1000) it appends one JSON line with process.memoryUsage(),
// /proc/self/status (RssAnon, RssFile: smaps_rollup walks every mapping and, with 10,000
// sockets open, billed the measured process ~0.04 ms per run), open sockets, so peak
// RSS can be broken down by where it sits (JS heap, ArrayBuffers, native, file-backed).
import { appendFileSync, readFileSync } from 'node:fs';

const path = process.env.RESQ_MEM_PROBE;
if (path) {
  const every = Number(process.env.RESQ_MEM_PROBE_MS ?? 1000);
  const sample = () => {
    const m = process.memoryUsage();
    const status = {};
    for (const line of readFileSync('/proc/self/status', 'utf8').split('\n')) {
      const hit = /^(\w+):\s+(\d+) kB/.exec(line);
      if (hit) status[hit[1]] = Number(hit[2]) * 1024;
    }
    // Cheaper than reading 10,000 links in /proc/self/fd each second.
    const sockets = process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;
    appendFileSync(path, `${JSON.stringify({ t: Date.now(), rss: m.rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, anon: status.RssAnon, fileRss: (status.RssFile ?? 0) + (status.RssShmem ?? 0), sockets })}\n`);
  };
  setInterval(sample, every).unref();
  // RESQ_HEAP_SNAPSHOT=<dir>,<ms>: one heap snapshot that many ms after start (diagnosis only).
  const [snapDir, snapMs] = (process.env.RESQ_HEAP_SNAPSHOT ?? '').split(',');
  if (snapDir) {
    const { writeHeapSnapshot } = await import('node:v8');
    setTimeout(() => writeHeapSnapshot(`${snapDir}/at-${snapMs}ms.heapsnapshot`), Number(snapMs)).unref();
  }
}
