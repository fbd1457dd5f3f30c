import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type ScorerKind, type ScorerSpec } from './types.js';

// What a scorer is, apart from the file it is written in: each kind's settings, its version, and
// scorers as a batch keeps them. The store and the runner use these alone; reading a scorers file
// (YAML or JSON, scorers-file.ts) loads the config parser besides.

const nonEmpty = z.string().trim().min(1);
const globs = z.array(nonEmpty).min(1);

/** Each kind's settings (every key of a scorer but name and kind), defaults filled in; unknown keys refused. */
export const SETTINGS = {
  includes: z.strictObject({}),
  exact: z.strictObject({}),
  regex: z.strictObject({
    pattern: z.string().min(1).refine(compiles, { message: 'not a valid regular expression' }),
    /** Regular expression flags, of `i`, `m`, `s` and `u`. */
    flags: z.string().regex(/^[imsu]*$/, { message: 'must be made of the flags i, m, s and u' }).default(''),
  }),
  number: z.strictObject({ tolerance: z.number().min(0).default(0) }),
  files: z
    .strictObject({ names: globs.optional(), roles: globs.optional() })
    .refine((s) => s.names !== undefined || s.roles !== undefined, { message: 'give `names` (globs) or `roles`' }),
  json: z.strictObject({ path: z.string().regex(/^\$?[^\s]*$/, { message: 'must be a path like `result.total` or `items[0].name`' }) }),
  command: z.strictObject({
    command: nonEmpty,
    /** Seconds the program may take for one item. */
    timeout_seconds: z.number().positive().max(3600).default(30),
  }),
  agent: z.strictObject({ rubric: nonEmpty }),
} satisfies Record<ScorerKind, z.ZodType>;

/** A scorer's name: 1 to 64 letters, digits, `_` or `-`. */
export const NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** Every kind of scorer, in the order a problem lists them. */
export const KINDS = Object.keys(SETTINGS) as ScorerKind[];

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** JSON with every object's keys in order: one text for one value, however it was written. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/**
 * A scorer's version: the SHA-256 (hex, first 16 digits) of the canonical JSON of its kind and
 * settings. Verdicts are kept per version, so a changed setting judges the batch again.
 */
export function scorerVersion(kind: ScorerKind, settings: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson({ kind, settings })).digest('hex').slice(0, 16);
}

/** A version as stored: scorerVersion gives 16 hex digits; any short plain token is taken, nothing else. */
const VERSION = /^[A-Za-z0-9]{1,64}$/;

/**
 * Scorers as a batch keeps them: a `command` scorer's program left out (a program runs only
 * where its own command line named it, never from what the database holds; its name, kind,
 * version and timeout stay, so windows and verdicts still know it).
 */
export function scorersForStore(specs: readonly ScorerSpec[]): ScorerSpec[] {
  return specs.map((s) => {
    if (s.kind !== 'command') return s;
    const { command: _program, ...rest } = s.settings;
    return { ...s, settings: rest };
  });
}

/**
 * A batch's stored scorers, checked where they leave the database as a file's are where they
 * enter: each entry's name, kind and version, and its settings by its kind's schema (a pattern
 * that compiles, a finite tolerance…). An entry that fails is left out; a `command` scorer comes
 * back without a program whatever the row holds. Undefined when the row holds none.
 */
export function scorersFromStore(stored: unknown): ScorerSpec[] | undefined {
  if (!Array.isArray(stored)) return undefined;
  const out: ScorerSpec[] = [];
  for (const e of stored as unknown[]) {
    if (e === null || typeof e !== 'object') continue;
    const { name, kind, version, settings } = e as Record<string, unknown>;
    if (typeof name !== 'string' || !NAME.test(name) || typeof version !== 'string' || !VERSION.test(version)) continue;
    if (typeof kind !== 'string' || !(KINDS as string[]).includes(kind) || settings === null || typeof settings !== 'object') continue;
    if (kind === 'command') {
      const t = (settings as Record<string, unknown>).timeout_seconds;
      const ok = SETTINGS.command.shape.timeout_seconds.safeParse(t);
      if (ok.success) out.push({ name, kind, version, settings: { timeout_seconds: ok.data } });
      continue;
    }
    const parsed = (SETTINGS[kind as ScorerKind] as z.ZodType).safeParse(settings);
    if (parsed.success) out.push({ name, kind: kind as ScorerKind, version, settings: parsed.data as Record<string, unknown> });
  }
  return out;
}
