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
