import { parseScript, type Script } from './directives.js';

// The simulated agent as a judge (docs/simulator.md): a question in resq's judging format
// (first line JUDGE_HEADER, length-prefixed sections) is judged deterministically: PASS when
// the answer contains the expected text, case and spacing ignored. The judged question's
// `@judge_NAME[=VALUE]` tokens are the judging run's own directives `@NAME[=VALUE]` (its
// other directives are not), and `@judge_silent` makes the reply carry no verdict line.

/** The first line of a judging question (resq's src/score/judge-prompt.ts writes it). */
const JUDGE_HEADER = 'resq judging request (format 1)';

/** What the simulated judge reads out of a judging question. */
export interface JudgeCase {
  question: string;
  expected: string;
  answer: string;
  /** `@judge_silent`: the reply has no verdict line. */
  silent: boolean;
}

/** The sections of a judging question by name, or null when it is not one (or is malformed). */
function sections(input: string): Map<string, string> | null {
  if (!input.startsWith(`${JUDGE_HEADER}\n`)) return null;
  const out = new Map<string, string>();
  const head = /\[([a-z ]+): (\d+)(?: of \d+)? characters\]\n/g;
  let at = 0;
  for (;;) {
    head.lastIndex = at;
    const m = head.exec(input);
    if (!m) break;
    const start = m.index + m[0].length;
    const n = Number(m[2]);
    if (start + n > input.length) return null;
    out.set(m[1]!, input.slice(start, start + n));
    at = start + n;
  }
  return out.has('answer') && out.has('expected answer') && out.has('question') ? out : null;
}

/** A judging question's case, or null when the input is an ordinary question. */
export function judgeCaseOf(input: string): JudgeCase | null {
  const s = sections(input);
  if (!s) return null;
  const question = s.get('question')!;
  return { question, expected: s.get('expected answer')!, answer: s.get('answer')!, silent: question.split(/\s+/).includes('@judge_silent') };
}

/** The judging run's directives: the judged question's `@judge_NAME` tokens read as `@NAME`. */
export function judgeScript(c: JudgeCase): Script {
  const own = c.question
    .split(/\s+/)
    .filter((t) => t.startsWith('@judge_') && t !== '@judge_silent')
    .map((t) => `@${t.slice('@judge_'.length)}`);
  return { ...parseScript(own.join(' ')), judge: { expected: c.expected, answer: c.answer, silent: c.silent } };
}

const loose = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** The judge's reply: `VERDICT: PASS|FAIL` then the reason (no verdict line with `@judge_silent`). */
export function judgeReply(c: Pick<JudgeCase, 'expected' | 'answer' | 'silent'>): string[] {
  if (c.silent) return ['I would rather not say whether this answer is right.'];
  const pass = loose(c.answer).includes(loose(c.expected));
  return [pass ? 'VERDICT: PASS' : 'VERDICT: FAIL', `The answer ${pass ? 'contains' : 'does not contain'} the expected text.`];
}
