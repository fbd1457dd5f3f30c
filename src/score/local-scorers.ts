import { isRawNumber } from '../text/json-text.js';
import { canonicalJson } from './scorer-specs.js';
import { judged, type Judgement, type ScoreInput, unscored } from './judgement.js';
import type { ScorerSpec } from './types.js';

// The scorers judged here, without the service or another program: pure functions of the
// item and the scorer's settings (validated by scorers-file.ts).

/** The kinds judged by {@link judgeLocally}. */
export const LOCAL_KINDS = ['includes', 'exact', 'regex', 'number', 'files', 'json'] as const;

/** Whether a scorer is judged by {@link judgeLocally}. */
export function isLocalKind(kind: ScorerSpec['kind']): kind is (typeof LOCAL_KINDS)[number] {
  return (LOCAL_KINDS as readonly string[]).includes(kind);
}

/** A value with numbers kept as their text (JSON.rawJSON) turned into plain numbers. */
function plain(value: unknown): unknown {
  if (isRawNumber(value)) return Number(value.rawJSON);
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

/** The expected answer as text (a string, or a number's text), or null when it is none or an object. */
function expectedText(expected: unknown): string | null {
  if (typeof expected === 'string') return expected;
  if (typeof expected === 'number') return String(expected);
  if (isRawNumber(expected)) return expected.rawJSON;
  return null;
}

/** Text lower-cased with every run of spacing one space, trimmed: what `includes` compares. */
const loose = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** A short quote of a value for a reason. */
const quote = (s: string): string => JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);

/** The first number in a text (thousands commas allowed), or null. */
export function firstNumber(text: string): number | null {
  const m = /[-+]?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|[-+]?\.\d+(?:[eE][-+]?\d+)?/.exec(text);
  if (!m) return null;
  const n = Number(m[0].replace(/,/g, ''));
  return Number.isFinite(n) ? n : null;
}

/** A glob (`*`, `?`, `**`) as a regular expression over a whole file name. */
export function globRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      const deep = glob[i + 1] === '*';
      out += deep ? '.*' : '[^/]*';
      if (deep) i++;
    } else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`, 'i');
}

/** The value at a path (`result.total`, `items[0].name`, `$.a`) inside a value, or undefined. */
export function valueAt(value: unknown, path: string): unknown {
  const steps = path.replace(/^\$\.?/, '').match(/[^.[\]]+|\[\d+\]/g) ?? [];
  let at: unknown = value;
  for (const step of steps) {
    if (at === null || typeof at !== 'object') return undefined;
    const key = step.startsWith('[') ? Number(step.slice(1, -1)) : step;
    if (Array.isArray(at) !== (typeof key === 'number')) return undefined;
    if (!Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

/** The first fenced ```json block of an answer, parsed; null when there is none, a string when it does not parse. */
function firstJsonBlock(text: string): { value: unknown } | string | null {
  const m = /```json\s+([\s\S]*?)```/i.exec(text);
  if (!m) return null;
  try {
    return { value: JSON.parse(m[1]!) };
  } catch {
    return 'the ```json block is not valid JSON';
  }
}

function judgeIncludes(item: ScoreInput, exact: boolean): Judgement {
  const want = expectedText(item.expected);
  if (want === null) return unscored(item.expected === null ? 'no expected answer' : 'the expected answer is an object: use kind json');
  const text = item.text ?? '';
  if (exact) return text.trim() === want.trim() ? judged(true, 'the answer is the expected text') : judged(false, `the answer is not ${quote(want.trim())}`);
  return loose(text).includes(loose(want)) ? judged(true, `contains ${quote(want)}`) : judged(false, `does not contain ${quote(want)}`);
}

function judgeNumber(item: ScoreInput, tolerance: number): Judgement {
  const e = expectedText(item.expected);
  const want = e === null ? NaN : Number(e.trim().replace(/,/g, ''));
  if (e === null || e.trim() === '' || !Number.isFinite(want)) return unscored(item.expected === null ? 'no expected answer' : 'the expected answer is not a number');
  const got = firstNumber(item.text ?? '');
  if (got === null) return judged(false, 'no number in the answer');
  const off = Math.abs(got - want);
  return off <= tolerance ? judged(true, `${got} is within ${tolerance} of ${want}`) : judged(false, `${got} is ${off} from ${want} (tolerance ${tolerance})`);
}

function judgeFiles(item: ScoreInput, names: readonly string[] | undefined, roles: readonly string[] | undefined): Judgement {
  const files = item.files ?? [];
  const missing: string[] = [];
  for (const g of names ?? []) {
    const re = globRegExp(g);
    if (!files.some((f) => f.name !== null && re.test(f.name))) missing.push(`no file named ${quote(g)}`);
  }
  for (const r of roles ?? []) if (!files.some((f) => f.role === r)) missing.push(`no file of role ${quote(r)}`);
  return missing.length ? judged(false, missing.join('; ')) : judged(true, `${files.length} file${files.length === 1 ? '' : 's'}, each asked for found`);
}

function judgeJson(item: ScoreInput, path: string): Judgement {
  if (item.expected === null) return unscored('no expected answer');
  const block = firstJsonBlock(item.text ?? '');
  if (block === null) return judged(false, 'no ```json block in the answer');
  if (typeof block === 'string') return judged(false, block);
  const got = valueAt(block.value, path);
  if (got === undefined) return judged(false, `nothing at ${path || '$'} in the json block`);
  const want = plain(item.expected);
  const same = canonicalJson(got) === canonicalJson(want) || (typeof want === 'string' && got !== null && typeof got !== 'object' && String(got) === want.trim());
  return same ? judged(true, `${path || '$'} is the expected value`) : judged(false, `${path || '$'} is ${quote(canonicalJson(got))}, not the expected value`);
}

/** Each regex scorer's pattern, compiled once (a batch is judged item by item). */
const patterns = new WeakMap<ScorerSpec, RegExp>();

/**
 * Judges one item by a local scorer. Pure: the answer, the expected answer and the files are
 * the item's. An item without what the scorer needs (no expected answer) is unscored.
 */
export function judgeLocally(spec: ScorerSpec, item: ScoreInput): Judgement {
  const s = spec.settings;
  switch (spec.kind) {
    case 'includes':
      return judgeIncludes(item, false);
    case 'exact':
      return judgeIncludes(item, true);
    case 'regex': {
      let re = patterns.get(spec);
      if (!re) patterns.set(spec, (re = new RegExp(String(s['pattern']), String(s['flags'] ?? ''))));
      return re.test(item.text ?? '') ? judged(true, `matches /${re.source}/`) : judged(false, `does not match /${re.source}/`);
    }
    case 'number':
      return judgeNumber(item, Number(s['tolerance'] ?? 0));
    case 'files':
      return judgeFiles(item, s['names'] as string[] | undefined, s['roles'] as string[] | undefined);
    case 'json':
      return judgeJson(item, String(s['path'] ?? ''));
    default:
      throw new Error(`judgeLocally: ${spec.kind} is not a local scorer`);
  }
}
