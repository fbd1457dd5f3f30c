import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A position in a JavaScript file: `file:///…/x.mjs:12:5` or `/…/x.js:12:5`. */
const POSITION = /(file:\/\/\/[^\s()]+?|\/[^\s()]+?)\.(mjs|js):(\d+):(\d+)/g;

/**
 * A stack trace with every position in a file that has a source map beside it (`x.mjs.map`:
 * the CLI's bundle, the package's compiled files) said as the TypeScript source's. The maps
 * are read here, when an internal error is reported, rather than by Node at every start
 * (`--enable-source-maps` parses each loaded file's map: tens of milliseconds per command).
 * A position without a readable map stays as it was.
 */
export function mappedStack(stack: string): string {
  const maps = new Map<string, SourceMap | null>();
  return stack.replace(POSITION, (whole, file: string, ext: string, line: string, column: string) => {
    const js = `${file.startsWith('file://') ? fileURLToPath(file) : file}.${ext}`;
    if (!maps.has(js)) maps.set(js, readMap(`${js}.map`));
    const entry = maps.get(js)?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry || !('originalSource' in entry)) return whole;
    const source = entry.originalSource.startsWith('file://') ? fileURLToPath(entry.originalSource) : resolve(dirname(js), entry.originalSource);
    return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}

function readMap(path: string): SourceMap | null {
  try {
    return new SourceMap(JSON.parse(readFileSync(path, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
  } catch {
    return null;
  }
}
