/** A pause the agent makes, in the order the question wrote them. */
export type PauseSpec =
  /** `cost` a number as given (negative and 1e308 included), or text (`@confirm=about%2030%20credits`, `@confirm=NaN`). */
  | { tool: 'confirm_scope'; cost?: number | string }
  | { tool: 'ask_choice'; allowMultiple: boolean }
  | { tool: 'request_quality_image' }
  | { tool: string; unknown: true };

/** Kinds of files the final run can make. */
/** `svg` and `html` files carry script payloads: they exist for hostile-content tests (see hostile.ts). */
export type FileKind = 'md' | 'csv' | 'png' | 'pdb' | 'svg' | 'html';

/** One file the final run makes. */
export interface FileSpec {
  kind: FileKind;
  /** false when written as `kind:noname`: the file reference has no `name`. */
  named: boolean;
}

/** How the simulated agent behaves for one question (see docs/simulator.md). */
export interface Script {
  /** The question with the directives taken out. */
  question: string;
  durationMs: number | undefined;
  pauses: PauseSpec[];
  files: FileSpec[];
  filename: string | undefined;
  sizeBytes: number | undefined;
  fail: boolean;
  status: string | undefined;
  deltas: number;
  /** `@hostile`: the answer, pauses, file names and files carry script payloads (hostile.ts). */
  hostile: boolean;
  /** false with `@nosearch`: the run calls no `search_literature` tool (no tool events of its own). */
  search: boolean;
  /** `@huge=SIZE`: every text of each pause's input is this many characters long. */
  hugeChars: number | undefined;
  /** `@deep=N`: each pause's input carries a value nested N levels deep (`input.nested`). */
  deepLevels: number | undefined;
  /** `@repeat_options`: an ask_choice pause offers its first option twice (the same id). */
  repeatOptions: boolean;
  /** A judging question (judge.ts): what the simulated judge reads; absent for an ordinary question. */
  judge?: { expected: string; answer: string; silent: boolean };
}

const FILE_KINDS: readonly string[] = ['md', 'csv', 'png', 'pdb', 'svg', 'html'];
const TOKEN = /^@([a-z_]+)(?:=(\S*))?$/;

/**
 * Reads the `@name` / `@name=value` directives out of a question. A token that is not a
 * known directive with a valid value stays part of the question text, so ordinary text
 * such as "@home" is never swallowed.
 */
export function parseScript(input: string): Script {
  const script: Script = {
    question: '',
    durationMs: undefined,
    pauses: [],
    files: [],
    filename: undefined,
    sizeBytes: undefined,
    fail: false,
    status: undefined,
    deltas: 4,
    hostile: false,
    search: true,
    hugeChars: undefined,
    deepLevels: undefined,
    repeatOptions: false,
  };
  const kept: string[] = [];
  for (const token of input.split(/\s+/)) {
    if (token === '') continue;
    const m = TOKEN.exec(token);
    if (!m || !apply(script, m[1] ?? '', m[2])) kept.push(token);
  }
  script.question = kept.join(' ');
  return script;
}

function apply(s: Script, name: string, value: string | undefined): boolean {
  switch (name) {
    case 'duration': {
      const ms = value === undefined ? undefined : parseDuration(value);
      if (ms === undefined) return false;
      s.durationMs = ms;
      return true;
    }
    case 'confirm': {
      if (value === undefined) s.pauses.push({ tool: 'confirm_scope' });
      else {
        if (value === '') return false;
        // Any number as given (a hostile service's -140 or 1e308); else the text, verbatim after percent-decoding.
        const cost = Number(value);
        s.pauses.push({ tool: 'confirm_scope', cost: Number.isFinite(cost) ? cost : safeDecode(value) });
      }
      return true;
    }
    case 'choice':
      if (value !== undefined && value !== 'multi' && value !== 'single') return false;
      s.pauses.push({ tool: 'ask_choice', allowMultiple: value === 'multi' });
      return true;
    case 'image':
      if (value !== undefined) return false;
      s.pauses.push({ tool: 'request_quality_image' });
      return true;
    case 'tool':
      if (!value) return false;
      s.pauses.push({ tool: value, unknown: true });
      return true;
    case 'files': {
      if (!value) return false;
      const files: FileSpec[] = [];
      for (const part of value.split(',')) {
        const [kind, flag] = part.split(':');
        if (!kind || !FILE_KINDS.includes(kind) || (flag !== undefined && flag !== 'noname')) return false;
        files.push({ kind: kind as FileKind, named: flag === undefined });
      }
      s.files.push(...files);
      return true;
    }
    case 'filename':
      if (!value) return false;
      s.filename = safeDecode(value);
      return true;
    case 'size': {
      const n = value === undefined ? undefined : parseSize(value);
      if (n === undefined) return false;
      s.sizeBytes = n;
      return true;
    }
    case 'fail':
      if (value !== undefined) return false;
      s.fail = true;
      return true;
    case 'hostile':
      if (value !== undefined) return false;
      s.hostile = true;
      return true;
    case 'nosearch':
      if (value !== undefined) return false;
      s.search = false;
      return true;
    case 'huge': {
      const n = value === undefined ? undefined : parseSize(value);
      if (n === undefined || n > 64 * 1024 ** 2) return false;
      s.hugeChars = n;
      return true;
    }
    case 'deep': {
      const n = wholeIn(value, 1, 100_000);
      if (n === undefined) return false;
      s.deepLevels = n;
      return true;
    }
    case 'repeat_options':
      if (value !== undefined) return false;
      s.repeatOptions = true;
      return true;
    case 'status':
      if (!value) return false;
      s.status = value;
      return true;
    case 'deltas': {
      const n = wholeIn(value, 0, 10_000);
      if (n === undefined) return false;
      s.deltas = n;
      return true;
    }
    default:
      return false;
  }
}

/** A directive's whole-number value from `lo` to `hi`; undefined when absent, not whole or out of range. */
function wholeIn(value: string | undefined, lo: number, hi: number): number | undefined {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(n) && n >= lo && n <= hi ? n : undefined;
}

/** `250`, `250ms`, `1.5s`, `2m` → milliseconds; undefined when unreadable. */
export function parseDuration(v: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(v);
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = m[2] ?? 'ms';
  return Math.round(n * (unit === 'ms' ? 1 : unit === 's' ? 1000 : 60_000));
}

/** `1000`, `64kb`, `50mb`, `1gb` (powers of 1024) → bytes; undefined when unreadable. */
export function parseSize(v: string): number | undefined {
  const m = /^(\d+)(b|kb|k|mb|m|gb|g)?$/i.exec(v);
  if (!m) return undefined;
  const unit = (m[2] ?? 'b').toLowerCase()[0];
  const mult = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  return Number(m[1]) * mult;
}

// Percent-decoding lets a test write spaces, slashes or control characters into a file name.
function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}
