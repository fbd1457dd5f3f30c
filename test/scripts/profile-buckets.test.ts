import { describe, expect, it } from 'vitest';
import { bucketProfile, frameCategory, perRun, total, type CpuProfile } from '../bench/lib/profile-buckets.js';

const ROOT = 'file:///repo';

describe('frameCategory', () => {
  it('names the category of a frame by its URL, and of V8 pseudo-frames by their name', () => {
    expect(frameCategory('run', `${ROOT}/src/store/sqlite/transitions.ts`)).toBe('store');
    expect(frameCategory('x', `${ROOT}/node_modules/better-sqlite3/lib/methods/transaction.js`)).toBe('store');
    expect(frameCategory('x', `${ROOT}/node_modules/pg-protocol/dist/parser.js`)).toBe('store');
    expect(frameCategory('x', `${ROOT}/node_modules/undici/lib/dispatcher/client-h1.js`)).toBe('HTTP');
    expect(frameCategory('x', 'node:net')).toBe('HTTP');
    expect(frameCategory('x', 'node:internal/streams/readable')).toBe('HTTP');
    expect(frameCategory('x', `${ROOT}/src/api/transport.ts`)).toBe('HTTP');
    expect(frameCategory('x', `${ROOT}/src/api/sse-decoder.ts`)).toBe('events');
    expect(frameCategory('x', `${ROOT}/src/api/run-schema.ts`)).toBe('validation');
    expect(frameCategory('x', `${ROOT}/node_modules/zod/v4/core/parse.js`)).toBe('validation');
    expect(frameCategory('x', `${ROOT}/src/runner/item-driver.ts`)).toBe('scheduling');
    expect(frameCategory('x', `${ROOT}/src/cli/progress.ts`)).toBe('progress');
    expect(frameCategory('processTicksAndRejections', 'node:internal/process/task_queues')).toBe('promises and timers');
    expect(frameCategory('(garbage collector)', '')).toBe('GC');
    expect(frameCategory('(idle)', '')).toBe('idle');
    expect(frameCategory('(program)', '')).toBe('other');
    expect(frameCategory('parse', '')).toBeNull();
    expect(frameCategory('x', 'node:internal/modules/esm/loader')).toBeNull();
  });
});

describe('bucketProfile', () => {
  // root → runner → store (→ native run); root → undici → JSON.parse (native); root → (idle); root → GC.
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', url: '' }, children: [2, 5, 7, 8] },
      { id: 2, callFrame: { functionName: 'drive', url: `${ROOT}/src/runner/item-driver.ts` }, children: [3] },
      { id: 3, callFrame: { functionName: 'update', url: `${ROOT}/src/store/sqlite/transitions.ts` }, children: [4] },
      { id: 4, callFrame: { functionName: 'run', url: '' } },
      { id: 5, callFrame: { functionName: 'onBody', url: `${ROOT}/node_modules/undici/lib/api/readable.js` }, children: [6] },
      { id: 6, callFrame: { functionName: 'parse', url: '' } },
      { id: 7, callFrame: { functionName: '(idle)', url: '' } },
      { id: 8, callFrame: { functionName: '(garbage collector)', url: '' } },
    ],
    // Each sample is charged the time until the next one.
    samples: [4, 3, 2, 6, 7, 8, 4],
    timeDeltas: [0, 100, 200, 300, 400, 500, 600],
  };

  it('charges each sample to the innermost frame with a category, leaving idle out', () => {
    const b = bucketProfile(profile);
    expect(b.store).toBe(100 + 200);
    expect(b.scheduling).toBe(300);
    expect(b.HTTP).toBe(400);
    expect(b.GC).toBe(600);
    expect(total(b)).toBe(100 + 200 + 300 + 400 + 600);
  });

  it('gives the cost per run above one run', () => {
    const full = bucketProfile(profile);
    const one = bucketProfile({ ...profile, timeDeltas: profile.timeDeltas.map((t) => t / 10) });
    expect(perRun(full, one, 9).store).toBeCloseTo((300 - 30) / 9);
  });
});
