import { describe, expect, it } from 'vitest';
import { planStep } from '../../src/sim/agent-script.js';
import { parseScript } from '../../src/sim/directives.js';
import { fileChunks, MEDIA_TYPES } from '../../src/sim/file-content.js';
import { HOSTILE_FILE_NAME } from '../../src/sim/hostile.js';
import type { FileRecord } from '../../src/sim/records.js';

const chain = (input: string) => ({ input, answers: [], narrow: false, earlierMessages: 0 });
const file = (kind: FileRecord['kind'], name?: string): FileRecord => ({ id: `f-${kind}`, account: 'a', kind, name, sizeBytes: undefined, residues: 60, createdAt: 0 });
const text = (f: FileRecord) => Buffer.concat([...fileChunks(f)]).toString('utf8');

describe('the @hostile directive', () => {
  it('is a directive (taken out of the question), and only without a value', () => {
    expect(parseScript('q @hostile').hostile).toBe(true);
    expect(parseScript('q @hostile').question).toBe('q');
    expect(parseScript('q @hostile=1')).toMatchObject({ hostile: false, question: 'q @hostile=1' });
    expect(parseScript('q').hostile).toBe(false);
  });

  it('puts script tags, onerror attributes and javascript: links in the answer', () => {
    const p = planStep(chain('x @hostile'), 0);
    expect(p.text).toContain('<script>');
    expect(p.text).toContain('onerror=');
    expect(p.text).toContain('](javascript:');
  });

  it('adds a markup-named report, an SVG with a script and an HTML page to the files asked for', () => {
    const p = planStep(chain('x @hostile @files=png'), 0);
    expect(p.tools.flatMap((t) => (t.file ? [[t.file.kind, t.file.name]] : []))).toEqual([
      ['png', 'figure.png'],
      ['md', HOSTILE_FILE_NAME],
      ['svg', 'figure.svg'],
      ['html', 'page.html'],
    ]);
  });

  it('writes payloads into the pause inputs a page shows', () => {
    const p = planStep(chain('x @hostile @choice=multi'), 0);
    const input = (p.end as unknown as { input: { question: string; options: { label: string }[] } }).input;
    expect(input.question).toContain('onerror=');
    expect(input.options.every((o) => o.label.includes('onerror='))).toBe(true);
  });

  it('files: the SVG holds a script, the HTML a script, the markup-named report the answer payloads; a plain report none', () => {
    expect(MEDIA_TYPES.svg).toBe('image/svg+xml');
    expect(text(file('svg', 'figure.svg'))).toMatch(/^<svg[^]*<script>[^]*<\/svg>/);
    expect(text(file('html', 'page.html'))).toContain('<script>');
    expect(text(file('md', HOSTILE_FILE_NAME))).toContain('<script>');
    expect(text(file('md', 'report.md'))).not.toContain('<script>');
  });
});

describe('the hostile values of a pause (@confirm=…, @huge, @deep, @repeat_options)', () => {
  const pauseInput = (q: string) => (planStep(chain(q), 0).end as unknown as { input: Record<string, unknown> }).input;

  it('sends the cost as written: 1e308, -140, text', () => {
    expect(pauseInput('x @confirm=1e308').cost).toBe(1e308);
    expect(pauseInput('x @confirm=-140').cost).toBe(-140);
    expect(pauseInput('x @confirm=about%2030%20credits').cost).toBe('about 30 credits');
  });

  it('makes every text of the pause SIZE characters, option ids left alone', () => {
    const input = pauseInput('x @choice @huge=10kb') as { question: string; options: { id: string; label: string }[] };
    expect(input.question).toHaveLength(10 * 1024);
    expect(input.options.map((o) => [o.id, o.label.length])).toEqual([['a', 10240], ['b', 10240], ['c', 10240]]);
  });

  it('nests a value N levels deep in the input', () => {
    let v = pauseInput('x @confirm=1 @deep=3000').nested as Record<string, unknown> | string;
    let levels = 0;
    while (typeof v === 'object') [v, levels] = [v.level as Record<string, unknown> | string, levels + 1];
    expect([levels, v]).toEqual([3000, 'bottom']);
  });

  it('offers the first option twice with @repeat_options', () => {
    const input = pauseInput('x @choice @repeat_options') as { options: { id: string }[] };
    expect(input.options.map((o) => o.id)).toEqual(['a', 'a', 'b', 'c']);
  });
});
