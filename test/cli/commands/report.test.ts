import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, type Sim } from '../../../src/sim/index.js';
import { openStore } from '../../../src/store/index.js';
import { tempDir } from '../../support/cli.js';
import { runInProcess } from '../../support/in-process-cli.js';
import { runCsvBatch } from '../../support/two-batches.js';

describe('resq report (a real batch against the simulator)', () => {
  let sim: Sim;
  let dir: string;
  let db: string;
  beforeAll(async () => {
    sim = await startSim({ defaultDurationMs: 20 });
    dir = tempDir('resq-report-cli-');
    db = join(dir, 'resq.db');
    const store = await openStore(db);
    const csv = 'id,question\nplan,plan @confirm=5\npick,pick @choice\ndoomed,doomed @fail\nplain,What is the capital?\n';
    const a = await runCsvBatch(sim, store, dir, 'before', csv, { confirm_scope: { approve_max_cost: 10 }, ask_choice: { prefer: ['b'] } });
    const b = await runCsvBatch(sim, store, dir, 'after', csv, { confirm_scope: { approve_max_cost: 10 }, ask_choice: { prefer: ['b'] } });
    const v = (pass: boolean, reason: string) => ({ scorer: 'mentions', version: 'v1', pass, score: pass ? 1 : 0, reason, scoredAt: '2026-01-01T00:00:00.000Z', by: 'includes' });
    for (const id of ['plan', 'pick', 'plain']) await store.recordVerdicts(a.id, id, [v(true, 'it says so')]);
    await store.recordVerdicts(b.id, 'plan', [v(false, 'no Paris in the answer')]);
    await store.recordVerdicts(b.id, 'pick', [v(true, 'it says so')]);
    await store.recordVerdicts(b.id, 'plain', [v(true, 'it says so')]);
    await store.close();
  }, 60_000);
  afterAll(async () => sim.close());

  it('writes one self-contained HTML file: counts, cost, pass rates with the interval, failures, decisions, regressions and every item', async () => {
    const out = join(dir, 'report.html');
    writeFileSync(out, 'an older report');
    const r = await runInProcess(['report', 'after', '--compare', 'before', '--output', out, '--db', db]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^wrote .*report\.html: 4 items, [\d.]+ (KB|kB|KiB|B)/);
    const page = readFileSync(out, 'utf8');
    expect(page).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-[^"]+&#39;; img-src &#39;none&#39;; script-src &#39;none&#39;/);
    expect(page).not.toMatch(/<script|<link|<img|src=|@import|url\(/i);
    for (const s of ['id="counts"', 'id="pass-rates"', 'id="failures"', 'id="decisions"', 'id="regressions"', 'id="items"']) expect(page).toContain(s);
    expect(page).toContain('Approved cost: 5.');
    // mentions over after's 3 completed items: 2 passed, 1 failed (66.7%, Wilson 20.8% – 93.9%).
    expect(page).toMatch(/<td>mentions<\/td><td class="n">2<\/td><td class="n">1<\/td><td class="n">0<\/td><td class="n">66\.7%<\/td><td>20\.8% – 93\.9%<\/td>/);
    expect(page).toMatch(/<td>confirm_scope<\/td><td>approved<\/td><td>the policy<\/td><td class="n">1<\/td>/);
    expect(page).toMatch(/<table id="regressed">.*<a href="#i-plan">plan<\/a>.*no Paris in the answer/s);
    expect(page).toMatch(/<tr id="i-doomed">.*<p class=f>failed \(agent_error\)/);
    expect(page).toMatch(/<tr id="i-plain"><td>plain<td>What is the capital\?<td><td><h2>Answer<\/h2>\n<p>Simulated answer to: &quot;What is the capital\?&quot;/);
    // One column per scorer: ✓ passed, ✗ failed, each with its reason.
    expect(page).toContain('<th>mentions</th><th>Files</th>');
    expect(page).toMatch(/<tr id="i-plan">.*<td class=f>✗ no Paris in the answer<td>/s);
    // Written whole through a temp file: nothing else left in the folder.
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('--json says where, how many items and how many bytes', async () => {
    const out = join(dir, 'r.html');
    const r = await runInProcess(['report', 'before', '--output', out, '--db', db, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ path: out, bytes: readFileSync(out).length, items: 4 });
  });

  it('bad flags are one line and exit 2, nothing written: a missing folder, a folder as the file, an unknown --compare, a --serve-url not http', async () => {
    const cases: [string[], string][] = [
      [['--output', join(dir, 'nope', 'r.html')], `resq: --output: the folder ${join(dir, 'nope')} does not exist\n`],
      [['--output', dir], `resq: --output: ${dir} is a folder; name the HTML file to write\n`],
      [['--output', join(dir, 'x.html'), '--compare', 'nope'], 'resq: --compare: no batch named "nope"\n'],
      [['--output', join(dir, 'x.html'), '--serve-url', 'javascript:alert(1)'], 'resq: --serve-url: only http or https addresses (got javascript:)\n'],
    ];
    for (const [flags, err] of cases) {
      const r = await runInProcess(['report', 'after', ...flags, '--db', db]);
      expect([r.code, r.stderr]).toEqual([2, err]);
    }
    expect(existsSync(join(dir, 'x.html'))).toBe(false);
  });
});
