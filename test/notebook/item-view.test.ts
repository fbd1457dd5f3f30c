import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickMime } from '../../src/notebook/bundle.js';
import { NotebookError } from '../../src/notebook/errors.js';
import { renderItem } from '../../src/notebook/item-view.js';
import { openResults, type Results } from '../../src/notebook/results.js';
import { findAll, parseXml, textOf } from './support/xml.js';
import { makeDemoDb } from './support/demo-db.js';

let r: Results;
beforeAll(async () => {
  r = await openResults((await makeDemoDb()).db);
});
afterAll(async () => r?.close());

describe('one item in full', () => {
  it('reads the question, answer, every run of the chain, decisions and files', async () => {
    const d = await r.item('demo', 'route');
    expect(d.item.question).toContain('Plan a synthesis route for ibuprofen');
    expect(d.runs.map((x) => [x.step, x.status, x.pausedOn])).toEqual([
      [0, 'requires_action', 'confirm_scope'],
      [1, 'requires_action', 'ask_choice'],
      [2, 'completed', null],
    ]);
    expect(d.runs[1]?.parentRunId).toBe(d.runs[0]?.id);
    expect(d.pauses.map((x) => [x.tool, x.decision?.by, x.decision?.cost])).toEqual([
      ['confirm_scope', 'policy', 6],
      ['ask_choice', 'policy', 0],
    ]);
    expect(d.files.map((f) => [f.name, f.status])).toEqual([
      ['report.md', 'downloaded'],
      ['table.csv', 'downloaded'],
    ]);
  });

  it('renders the answer as Markdown, the figure inline, and the structure file as path and size', async () => {
    const out = renderItem(await r.item('demo', 'fold'));
    expect(out.map(pickMime)).toEqual(['text/markdown', 'text/markdown', 'text/html', 'text/html', 'text/html', 'text/html', 'text/html', 'image/png']);
    expect(out[0]?.['text/markdown']).toMatch(/^### demo \/ fold — completed\n\n> Fold the sequence/);
    expect(out[1]?.['text/markdown']).toContain('## Answer');
    const png = Buffer.from(out[7]?.['image/png'] ?? '', 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(out[5]?.['text/plain']).toMatch(/^structure\.pdb \(structureId\): \/.*\/demo(-[0-9a-f]+)?\/fold\/structure\.pdb \(\d+(\.\d)? KiB, chemical\/x-pdb\)$/);
    const runs = parseXml(`<div>${out[3]?.['text/html']}</div>`);
    expect(findAll(runs, 'tbody')[0]?.children).toHaveLength(2);
  });

  it('renders a Markdown report and a CSV file as a table', async () => {
    const out = renderItem(await r.item('demo', 'route'));
    const report = out.find((b) => b['text/markdown']?.startsWith('# Report'));
    expect(report).toBeDefined();
    const csv = out.find((b) => b['text/html']?.includes('table.csv (table) —'));
    const th = findAll(parseXml(`<div>${csv?.['text/html']}</div>`), 'th').map(textOf);
    expect(th.length).toBeGreaterThan(1);
  });

  it('an item with no answer or files says so', async () => {
    const out = renderItem(await r.item('demo', 'booking'));
    expect(out[0]?.['text/markdown']).toContain('**held**: no policy for tool "book_instrument"');
    expect(out.map((b) => b['text/plain'])).toContain('Files: no files');
    const failed = renderItem(await r.item('demo', 'toxicity'));
    // The service's own code and message, verbatim.
    expect(failed[0]?.['text/markdown']).toContain('**error** (agent_error): simulated failure (@fail)');
    const runs = failed.find((b) => b['text/html']?.includes('Runs'));
    expect(runs?.['text/html']).toContain('agent_error');
  });

  it('a file deleted from disk shows why instead of failing', async () => {
    const d = await r.item('demo', 'figure');
    const png = d.files[0]!;
    rmSync(png.path!);
    const out = renderItem(d);
    expect(out.at(-1)?.['text/plain']).toContain('but is not there any more; `resq files pull` fetches it again');
  });

  it('an unknown item is a clear error naming some ids', async () => {
    await expect(r.item('demo', 'nope')).rejects.toThrow(NotebookError);
    await expect(r.item('demo', 'nope')).rejects.toThrow('batch "demo" has no item "nope"; its items include melting, fold, survey, solvent, figure');
  });
});
