// Issue 32, "where it went": a V8 CPU profile (.cpuprofile, from `node --cpu-prof`) as self
// time by category. Each sample is charged to the innermost frame on its stack that belongs
// to a category (a native call such as a statement's `run` or `JSON.parse` goes to its
// caller's category); samples with no such frame are `other`, and V8's idle samples are left
// out (not CPU).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Categories, in the order the table prints them. */
export const CATEGORIES = ['store', 'HTTP', 'events', 'validation', 'scheduling', 'progress', 'promises and timers', 'GC', 'other'] as const;
export type Category = (typeof CATEGORIES)[number];

/** What each category holds, for the table's first column. */
export const CATEGORY_LABELS: Record<Category, string> = {
  store: 'store: src/store/**, better-sqlite3, pg',
  HTTP: "HTTP: undici, node's http/net/streams, resq's transport (src/api, but the below)",
  events: 'events: the SSE decoder and stream (src/api/sse-*, run-events, follow-run, stream-*), eventsource-parser',
  validation: 'validation: zod, src/api/*-schema, parse-response, src/read/*-schema',
  scheduling: 'scheduling: the runner (src/runner/**)',
  progress: 'progress and --json lines (src/cli/**)',
  'promises and timers': "promises and timers (node's task queues, timers)",
  GC: 'garbage collection on the main thread',
  other: 'other (Node internals, module loading, unattributed native)',
};

/** URL patterns of each category but GC and other, tried in this order on each frame. */
const RULES: [Category, RegExp][] = [
  ['store', /\/src\/store\/|\/node_modules\/(better-sqlite3|pg|pg-protocol|pg-pool|pg-types|pg-cursor)\//],
  ['validation', /\/node_modules\/zod\/|\/src\/api\/[a-z-]*schema\.ts$|\/src\/api\/parse-response\.ts$|\/src\/read\/[a-z-]*schema\.ts$/],
  ['events', /\/node_modules\/eventsource-parser\/|\/src\/api\/(sse-decoder|sse-stream|run-events|follow-run|stream-attempt|stream-pools)\.ts$/],
  ['HTTP', /\/node_modules\/undici\/|^node:(_http|http|https|net|tls|dns|stream)|^node:internal\/(http|net|streams|stream_base_commons|dns|tls|deps\/undici|js_stream_socket)|\/src\/api\//],
  ['scheduling', /\/src\/runner\//],
  ['progress', /\/src\/cli\//],
  ['promises and timers', /^node:internal\/(process\/task_queues|timers|async_hooks|process\/promises)/],
];

/** The subset of V8's profile format read here. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** Microseconds of CPU per category (idle left out). */
export type Buckets = Record<Category, number>;

export function emptyBuckets(): Buckets {
  return Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Buckets;
}

/** The category a frame belongs to by itself, or null (then its caller's counts). */
export function frameCategory(functionName: string, url: string): Category | 'idle' | null {
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)' || functionName === '(root)') return 'other';
  for (const [category, re] of RULES) if (re.test(url)) return category;
  return null;
}

/** Self time by category of one profile. */
export function bucketProfile(p: CpuProfile): Buckets {
  const parent = new Map<number, number>();
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map<number, Category | 'idle'>();
  const categoryOf = (id: number): Category | 'idle' => {
    const known = memo.get(id);
    if (known) return known;
    const n = byId.get(id)!;
    const own = frameCategory(n.callFrame.functionName, n.callFrame.url);
    const up = parent.get(id);
    const c = own ?? (up === undefined ? 'other' : categoryOf(up));
    memo.set(id, c);
    return c;
  };
  const out = emptyBuckets();
  // timeDeltas[i] is the time from sample i-1 to sample i: each sample is charged the time
  // until the next one (the last, none).
  for (let i = 0; i < p.samples.length - 1; i++) {
    const c = categoryOf(p.samples[i]!);
    if (c !== 'idle') out[c] += p.timeDeltas[i + 1]!;
  }
  return out;
}

/** The buckets of every profile in a directory, summed (one process: its main thread, and any worker's). */
export function bucketDir(dir: string): Buckets {
  const out = emptyBuckets();
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.cpuprofile')) continue;
    const b = bucketProfile(JSON.parse(readFileSync(join(dir, f), 'utf8')) as CpuProfile);
    for (const c of CATEGORIES) out[c] += b[c];
  }
  return out;
}

/** (full − idle) / n per category: the cost per run above one run's start-up. */
export function perRun(full: Buckets, idle: Buckets, n: number): Buckets {
  const out = emptyBuckets();
  for (const c of CATEGORIES) out[c] = (full[c] - idle[c]) / n;
  return out;
}

export function total(b: Buckets): number {
  return CATEGORIES.reduce((s, c) => s + b[c], 0);
}
