import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../src/api/index.js';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { runInProcess } from '../../support/in-process-cli.js';

describe('resq threads', () => {
  let sim: Sim;
  let threadId: string;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 10 });
    const client = new ServiceClient({ baseUrl: sim.url, apiKey: sim.keys[0] ?? '' });
    const run = await client.createRun({ input: 'Tell me about thread listing @files=md' }, { idempotencyKey: 'threads-test-1' });
    await client.followRun(run.id);
    threadId = run.thread_id;
    await client.close();
  });
  afterAll(async () => sim.close());

  it('lists, shows and deletes threads', async () => {
    const env = { RESQ_API_KEY: sim.keys[0], RESQ_BASE_URL: sim.url };
    const list = await runInProcess(['threads', 'list'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(threadId);
    const show = await runInProcess(['threads', 'show', threadId], env);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('[user] Tell me about thread listing');
    expect(show.stdout).toContain('files: report.md');
    expect((await runInProcess(['threads', 'delete', threadId], env)).code).toBe(0);
    const gone = await runInProcess(['threads', 'show', threadId], env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/HTTP 404/);
    expect(gone.stderr).not.toContain(sim.keys[0]);
  });
});
