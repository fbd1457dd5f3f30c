import type { z } from 'zod';
import type { InputProblem } from '../errors.js';
import { closest } from '../text/closest-word.js';

/** Finds the line of a key path in the source file, when there is one. */
export type LineOf = (path: readonly PropertyKey[]) => number | undefined;

/** Where a value being validated came from: its file, its key path inside it, its lines. */
export interface Origin {
  /** Path of the file as the user gave it. */
  file: string;
  /**
   * Key path of the value inside the file (e.g. `['policy']` for a pipeline's inline policy).
   * @default []
   */
  prefix?: readonly PropertyKey[];
  /**
   * Line lookup for full key paths (prefix included).
   * @default undefined
   */
  lineOf?: LineOf;
}

/**
 * Plain-words messages for zod's issues, passed as the per-parse `error` map.
 * Messages name types, never the value: a misplaced API key must not be echoed.
 */
export const friendlyErrors: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'missing';
      return `must be ${typeName(issue.expected)}, found ${describe(issue.input)}`;
    case 'invalid_value':
      return `must be ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}`;
    case 'invalid_union': {
      const expected = issue.errors.flatMap((branch) =>
        branch.flatMap((i) => (i.code === 'invalid_type' ? [typeName(i.expected)] : [])),
      );
      return expected.length > 0 ? `must be ${[...new Set(expected)].join(' or ')}` : undefined;
    }
    case 'too_small':
      if (issue.origin === 'string' || issue.origin === 'array') return 'must not be empty';
      return `must be ${issue.inclusive ? 'at least' : 'more than'} ${issue.minimum}`;
    default:
      return undefined;
  }
};

/**
 * Turns a zod error into problems named by key path, one per unknown key. Given the schema
 * that was parsed, an unknown key close to a known one at the same place says which
 * (`concurrancy: unknown key: did you mean \`concurrency\`?`).
 */
export function zodProblems(error: z.ZodError, origin: Origin, schema?: z.ZodType): InputProblem[] {
  const prefix = origin.prefix ?? [];
  return error.issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      const known = schema ? keysAt(schema, issue.path) : [];
      return issue.keys.map((key) => {
        const near = closest(key, known);
        return problem(origin, [...path, key], near ? `unknown key: did you mean \`${near}\`?` : 'unknown key');
      });
    }
    return [problem(origin, path, issue.message)];
  });
}

/** The keys an object schema knows at `path` inside `schema` (optional wrappers and preprocessing seen through). */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let at: unknown = schema;
  for (let i = 0; ; i++) {
    const def = (at as { def?: { type?: string; innerType?: unknown; out?: unknown; shape?: Record<string, unknown> } } | undefined)?.def;
    if (!def) return [];
    if (def.type === 'pipe') {
      at = def.out;
      i--;
      continue;
    }
    if (def.innerType !== undefined && def.type !== 'object') {
      at = def.innerType;
      i--;
      continue;
    }
    if (def.type !== 'object' || !def.shape) return [];
    if (i === path.length) return Object.keys(def.shape);
    at = def.shape[String(path[i])];
  }
}

/** One problem at a key path, with its line when the source is known. */
export function problem(origin: Origin, path: readonly PropertyKey[], reason: string): InputProblem {
  const p: InputProblem = { file: origin.file, reason };
  const line = origin.lineOf?.(path);
  if (line !== undefined) p.line = line;
  if (path.length > 0) p.field = path.map(String).join('.');
  return p;
}

function typeName(expected: string): string {
  switch (expected) {
    case 'int':
      return 'an integer';
    case 'object':
      return 'a mapping';
    case 'array':
      return 'a list';
    default:
      return `a ${expected}`;
  }
}

/** The kind of a value, never the value itself. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'number' && !Number.isFinite(value)) return 'an infinite number';
  if (typeof value === 'number' && !Number.isInteger(value)) return 'a fraction';
  return `a ${typeof value}`;
}
