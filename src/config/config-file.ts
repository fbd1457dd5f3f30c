import { readFile } from 'node:fs/promises';
import { LineCounter, type Node, isMap, isPair, isScalar, isSeq, parseDocument } from 'yaml';
import { InputError, type InputProblem } from '../errors.js';
import type { LineOf } from './zod-problems.js';

/** A parsed YAML or JSON configuration file. */
export interface ConfigDocument {
  /** The file's value as plain JavaScript (null for an empty file). */
  value: unknown;
  /** Line of a key path in the file, for naming where a schema problem sits. */
  lineOf: LineOf;
}

/**
 * Parses the text of a YAML or JSON file (YAML 1.2 reads JSON too). Pure.
 * @throws {InputError} listing every syntax error with its line.
 */
export function parseConfigText(text: string, file: string): ConfigDocument {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new InputError(
      doc.errors.map((e): InputProblem => {
        const p: InputProblem = { file, reason: firstLine(e.message) };
        p.line = lineCounter.linePos(e.pos[0]).line;
        return p;
      }),
    );
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    // An unresolved or runaway alias only shows up when the document is turned into values.
    throw new InputError([{ file, reason: firstLine(err instanceof Error ? err.message : String(err)) }]);
  }
  const lineOf: LineOf = (path) => {
    let node: unknown = doc.contents;
    let line: number | undefined = lineAt(node, lineCounter);
    for (const key of path) {
      const next = child(node, key);
      if (next === undefined) break;
      line = lineAt(next.at, lineCounter) ?? line;
      node = next.node;
    }
    return line;
  };
  return { value, lineOf };
}

/**
 * Reads a YAML or JSON file.
 * @throws {InputError} when it cannot be read or has syntax errors (with their lines).
 */
export async function readConfigFile(path: string): Promise<ConfigDocument> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : String(err);
    throw new InputError([{ file: path, reason: `cannot read: ${reason}` }], { cause: err });
  }
  return parseConfigText(text, path);
}

/** The child of a map or list at `key`, with the node whose position names it (the key). */
function child(node: unknown, key: PropertyKey): { node: unknown; at: unknown } | undefined {
  if (isMap(node)) {
    const pair = node.items.find((p) => isPair(p) && String(isScalar(p.key) ? p.key.value : p.key) === String(key));
    return pair ? { node: pair.value, at: pair.key } : undefined;
  }
  if (isSeq(node)) {
    const item = node.items[Number(key)];
    return item === undefined ? undefined : { node: item, at: item };
  }
  return undefined;
}

function lineAt(node: unknown, lineCounter: LineCounter): number | undefined {
  const range = (node as Node | null)?.range;
  return range ? lineCounter.linePos(range[0]).line : undefined;
}

/** A message's first line, without yaml's trailing `at line N, column M:`. */
function firstLine(message: string): string {
  return message.split('\n', 1)[0]!.replace(/ at line \d+, column \d+:?$/, '');
}
