import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { InputError, type InputProblem } from '../errors.js';
import { type Origin, describe, friendlyErrors, parseConfigText, problem, zodProblems } from '../config/index.js';
import { KINDS, NAME, SETTINGS, scorerVersion } from './scorer-specs.js';
import { type ScorerKind, type ScorerSpec } from './types.js';

/** The first problem as the error: one line naming the file, the line and the field. */
const fail = (p: InputProblem): InputError => new InputError([p]);

/**
 * Parses the text of a scorers file (YAML or JSON): `scorers:`, a list of named scorers each with
 * its kind and settings. Pure.
 * @param fileName the file's name as the user gave it, for the problem.
 * @throws {InputError} one line naming the file, the line and the field of the first problem.
 */
export function parseScorers(text: string, fileName: string): ScorerSpec[] {
  const doc = parseConfigText(text, fileName);
  const origin: Origin = { file: fileName, lineOf: doc.lineOf };
  const top = doc.value;
  if (top === null || typeof top !== 'object' || Array.isArray(top))
    throw fail(problem(origin, [], `must be a mapping with \`scorers:\`, found ${describe(top)}`));
  const extra = Object.keys(top).filter((k) => k !== 'scorers');
  if (extra.length) throw fail(problem(origin, [extra[0]!], 'unknown key: the file holds `scorers:` only'));
  const list = (top as { scorers?: unknown }).scorers;
  if (!Array.isArray(list) || list.length === 0) throw fail(problem(origin, ['scorers'], list === undefined ? 'missing: a list of scorers' : 'must be a non-empty list of scorers'));
  const seen = new Set<string>();
  return list.map((entry: unknown, i): ScorerSpec => {
    const at = ['scorers', i];
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw fail(problem(origin, at, `must be a mapping, found ${describe(entry)}`));
    const { name, kind, ...rest } = entry as Record<string, unknown>;
    if (typeof name !== 'string' || !NAME.test(name))
      throw fail(problem(origin, [...at, 'name'], name === undefined ? 'missing' : 'must be 1 to 64 letters, digits, `_` or `-`'));
    if (seen.has(name)) throw fail(problem(origin, [...at, 'name'], `"${name}" is named twice`));
    seen.add(name);
    if (typeof kind !== 'string' || !(KINDS as string[]).includes(kind))
      throw fail(problem(origin, [...at, 'kind'], kind === undefined ? `missing: one of ${KINDS.join(', ')}` : `must be one of ${KINDS.join(', ')}`));
    const schema = SETTINGS[kind as ScorerKind] as z.ZodType;
    const parsed = schema.safeParse(rest, { error: friendlyErrors });
    if (!parsed.success) throw fail(zodProblems(parsed.error, { ...origin, prefix: at }, schema)[0]!);
    const settings = parsed.data as Record<string, unknown>;
    return { name, kind: kind as ScorerKind, version: scorerVersion(kind as ScorerKind, settings), settings };
  });
}

/**
 * Reads and parses a scorers file.
 * @throws {InputError} one line naming the file (and the line and field) when it cannot be read or is not valid.
 */
export async function parseScorersFile(path: string): Promise<ScorerSpec[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw fail({ file: path, reason: `cannot read: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : String(code ?? err)}` });
  }
  return parseScorers(text, path);
}
