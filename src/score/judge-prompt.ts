import { isRawNumber } from '../text/json-text.js';
import { oneLine } from '../text/printable.js';
import type { Verdict } from './types.js';

// The agent judge's question and the reading of its reply: pure. The question's sections are
// length-prefixed (`[answer: 120 characters]`), so no text inside one can pass for another.

/** The first line of every judging question: what the simulator (and a reader) knows it by. */
export const JUDGE_HEADER = 'resq judging request (format 1)';

/** Most characters of each section sent; a longer one is cut and says so. */
export const JUDGE_CAPS = { rubric: 2_000, question: 4_000, expected: 4_000, answer: 16_000 } as const;

/** Most characters of a verdict's reason kept from the judge's reply. */
export const MAX_REASON = 500;

/** What a judge's reply says: a verdict without its scorer, time and judge (null pass: unscored, with why). */
export type JudgeReading = Pick<Verdict, 'pass' | 'score' | 'reason'>;

const unscored = (reason: string): JudgeReading => ({ pass: null, score: null, reason });

/** What the judge is shown of one item. */
export interface JudgeCase {
  rubric: string;
  question: string;
  /** The question set's expected answer (a string, a number or an object); null: none. */
  expected: unknown;
  /** The answer's text; null: none. */
  answer: string | null;
}

/** The expected answer as the judge reads it: a string as it is, anything else as JSON. */
export function expectedAsText(expected: unknown): string {
  if (expected === null || expected === undefined) return '(none given)';
  if (typeof expected === 'string') return expected;
  if (isRawNumber(expected)) return expected.rawJSON;
  return JSON.stringify(expected) ?? String(expected);
}

/** One section: `[name: N characters]` (or `N of M` when cut), a line break, then exactly N characters. */
function section(name: string, text: string, cap: number): string {
  const kept = text.length > cap ? text.slice(0, cap) : text;
  const size = kept.length === text.length ? `${kept.length}` : `${kept.length} of ${text.length}`;
  return `[${name}: ${size} characters]\n${kept}\n`;
}

/**
 * The judging question for one item: the rubric, the question, the expected answer and the
 * answer, each cut to {@link JUDGE_CAPS}, asking for a first line `VERDICT: PASS` or
 * `VERDICT: FAIL` and a reason. Pure: the same case gives the same text (and so the same key).
 */
export function judgePrompt(c: JudgeCase): string {
  return [
    `${JUDGE_HEADER}\n`,
    'You are judging an answer. Read the rubric, the question, the expected answer and the answer below.\n',
    'Reply with a first line that is exactly `VERDICT: PASS` or `VERDICT: FAIL`, then a line giving the reason.\n\n',
    section('rubric', c.rubric, JUDGE_CAPS.rubric),
    section('question', c.question, JUDGE_CAPS.question),
    section('expected answer', expectedAsText(c.expected), JUDGE_CAPS.expected),
    section('answer', c.answer ?? '(no answer text)', JUDGE_CAPS.answer),
  ].join('');
}

const VERDICT_LINE = /^VERDICT: (PASS|FAIL)$/;

/**
 * Reads a judge's reply strictly: its first non-blank line must be exactly `VERDICT: PASS` or
 * `VERDICT: FAIL` (spaces around it aside); the reason is the rest, on one line, controls
 * escaped, at most {@link MAX_REASON} characters. Anything else leaves the item unscored with why.
 * The reply is untrusted: nothing of it reaches a reason but as that one escaped line.
 */
export function readVerdict(reply: string | null): JudgeReading {
  if (reply === null || reply.trim() === '') return unscored('the judge gave no reply');
  const lines = reply.split(/\r\n|\n|\r/);
  const at = lines.findIndex((l) => l.trim() !== '');
  const first = lines[at]!.trim();
  const m = VERDICT_LINE.exec(first);
  if (!m) return unscored(`the judge's reply has no verdict line (it began: ${oneLine(first, 80)})`);
  const rest = oneLine(lines.slice(at + 1).join(' '), MAX_REASON).replace(/^reason:\s*/i, '');
  const pass = m[1] === 'PASS';
  return { pass, score: pass ? 1 : 0, reason: rest === '' ? 'the judge gave no reason' : rest };
}
