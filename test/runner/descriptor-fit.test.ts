import { describe, expect, it } from 'vitest';
import { CHURN_RUNS_PER_DESCRIPTOR, DESCRIPTORS_PER_RUN, RESERVED_DESCRIPTORS, fitDescriptors, isLowered, requestDescriptors } from '../../src/runner/descriptor-fit.js';

describe('fitDescriptors', () => {
  it('runs all that was asked when the limit holds them, or when the limit is unknown', () => {
    const fit = fitDescriptors(20000, { concurrency: 400, downloads: 4, sameProcess: false });
    expect(fit).toMatchObject({ concurrency: 400, runs: 400, limit: 20000 });
    expect(isLowered(fit)).toBe(false);
    expect(fitDescriptors(null, { concurrency: 400, downloads: 0, sameProcess: true })).toMatchObject({ runs: 400, limit: null });
  });

  it('lowers the runs to what fits under the limit beside the reserve, and says what the asked concurrency needs', () => {
    const need = (runs: number): number => RESERVED_DESCRIPTORS + runs * DESCRIPTORS_PER_RUN + Math.ceil(runs / CHURN_RUNS_PER_DESCRIPTOR) + requestDescriptors(runs);
    const fit = fitDescriptors(256, { concurrency: 400, downloads: 0, sameProcess: false });
    expect(fit.needed).toBe(need(400));
    expect(need(fit.runs)).toBeLessThanOrEqual(256);
    expect(need(fit.runs + 1)).toBeGreaterThan(256);
    expect(isLowered(fit)).toBe(true);
  });

  it('counts one descriptor per run beside the shared request connections: 10,000 runs in flight fit under 20,000 open files', () => {
    // Each run holds its event stream's connection; its requests share a pool of at most 256.
    expect(requestDescriptors(10_000)).toBe(256);
    expect(requestDescriptors(3)).toBe(3);
    const fit = fitDescriptors(20_000, { concurrency: 10_000, downloads: 0, sameProcess: false });
    expect(fit.runs).toBe(10_000);
    expect(fit.needed).toBeLessThan(11_000);
    expect(isLowered(fit)).toBe(false);
  });

  it('counts both ends of each connection when the simulator is in this process, and the downloads beside the runs', () => {
    const alone = fitDescriptors(256, { concurrency: 400, downloads: 0, sameProcess: false });
    const sim = fitDescriptors(256, { concurrency: 400, downloads: 0, sameProcess: true });
    const simFiles = fitDescriptors(256, { concurrency: 400, downloads: 4, sameProcess: true });
    expect(sim.needed).toBeGreaterThan(alone.needed);
    expect(sim.runs).toBeLessThan(alone.runs);
    expect(simFiles.runs).toBeLessThan(sim.runs);
    expect(simFiles.needed - sim.needed).toBe(4 * 3);
  });

  it('always runs at least one, never more than asked', () => {
    expect(fitDescriptors(10, { concurrency: 50, downloads: 4, sameProcess: true }).runs).toBe(1);
    expect(fitDescriptors(256, { concurrency: 3, downloads: 0, sameProcess: true }).runs).toBe(3);
  });
});
