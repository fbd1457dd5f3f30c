import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as entry from '../../src/notebook/index.js';
import { ROOT } from '../support/cli.js';

interface Diagnostic {
  fileName?: string;
  start?: { line: number; character: number };
  messageText: string;
}
interface Converter {
  convert(prevDecl: string, src: string): { diagnostics: Diagnostic[] };
  close(): void;
}

// tslab compiles cells and everything they import with its own TypeScript 5.0 (Node10
// resolution, no strict, ES2022 lib) relative to the kernel's folder, the repo root.
const { createConverter } = createRequire(import.meta.url)('tslab/dist/converter.js') as { createConverter(o: { isJS: boolean; isBrowser: boolean }): Converter };

let conv: Converter;
beforeAll(() => {
  expect(process.cwd()).toBe(ROOT);
  conv = createConverter({ isJS: false, isBrowser: false });
});
afterAll(() => conv?.close());

function problems(src: string): string[] {
  return conv.convert('', src).diagnostics.map((d) => `${d.fileName ?? 'cell'}:${d.start ? `${d.start.line + 1}:${d.start.character + 1}` : ''} ${d.messageText}`);
}

function codeOf(notebook: string): string {
  const nb = JSON.parse(readFileSync(join(ROOT, 'notebooks', notebook), 'utf8')) as { cells: { cell_type: string; source: string | string[] }[] };
  return nb.cells
    .filter((c) => c.cell_type === 'code')
    .map((c) => (Array.isArray(c.source) ? c.source.join('') : c.source))
    .join('\n;\n');
}

describe('the notebook entry under tslab', () => {
  it('exports the helpers the notebooks use', () => {
    for (const name of ['openResults', 'showWith', 'table', 'summaryTable', 'renderItem', 'statusChart', 'durationChart', 'planCostChart', 'mediaTypeChart', 'modelChart', 'scoresTable', 'scoresChart'])
      expect(typeof (entry as Record<string, unknown>)[name], name).toBe('function');
  });

  it('compiles, with everything it imports, under tslab\'s TypeScript', () => {
    expect(problems("import * as nb from './src/notebook/index.js';\nimport * as tslab from 'tslab';\nconst show = nb.showWith(tslab.display);")).toEqual([]);
  });

  it('reports what tslab would refuse (so an empty list above means something)', () => {
    expect(problems("const n: number = 'text';")).toHaveLength(1);
    // ES2022 lib: newer methods such as toSorted do not compile in a notebook or anything it imports.
    expect(problems('[2, 1].toSorted();')[0]).toContain("Property 'toSorted' does not exist");
  });

  it.each(readdirSync(join(ROOT, 'notebooks')).filter((f) => f.endsWith('.ipynb')))('%s type-checks as tslab would run it', (nb) => {
    expect(problems(codeOf(nb))).toEqual([]);
  });
});
