import { planStep, scriptOf, type StepPlan } from './agent-script.js';
import type { Script } from './directives.js';
import type { Chain } from './chain.js';

/** One step of a run's scripted work; each but `end` sends one event, whose id is the step's index. */
export type Step =
  | { kind: 'started'; tool: number }
  | { kind: 'delta'; piece: number }
  | { kind: 'result'; tool: number }
  | { kind: 'end' };

/** Everything a run does, in order: a pure function of its chain and step. */
export interface Timeline {
  script: Script;
  plan: StepPlan;
  /** The text as it arrives in `text.delta` events. */
  pieces: string[];
  /** The text once the run ended (the pieces joined; the plan's text with @deltas=0). */
  fullText: string;
  steps: Step[];
  /** Index among the file-making tools of each tool (-1 for the search). */
  fileIndex: number[];
}

const END: Step = { kind: 'end' };

/**
 * The steps of run number `step` of a chain: the search starts, half the text arrives, the
 * search ends, each file tool starts and ends, the rest of the text, then the end (pause or
 * final status). Run steps are spread evenly over the run's duration.
 */
export function timelineOf(chain: Chain, step: number): Timeline {
  const script = scriptOf(chain);
  const plan = planStep(chain, step, script);
  const pieces = splitText(plan.text, plan.deltas);
  const deltas: Step[] = pieces.map((_, piece) => ({ kind: 'delta', piece }));
  const half = Math.ceil(deltas.length / 2);
  const steps: Step[] = [];
  const fileIndex: number[] = [];
  let files = 0;
  plan.tools.forEach((t, tool) => {
    fileIndex.push(t.file ? files++ : -1);
    steps.push({ kind: 'started', tool });
    // The first tool (the search) runs while the first half of the text arrives.
    if (tool === 0) steps.push(...deltas.slice(0, half));
    steps.push({ kind: 'result', tool });
  });
  if (plan.tools.length === 0) steps.push(...deltas.slice(0, half));
  steps.push(...deltas.slice(half), END);
  return { script, plan, pieces, fullText: pieces.length ? pieces.join('') : plan.text, steps, fileIndex };
}

/** The text written after `done` steps. */
export function textAt(tl: Timeline, done: number): string {
  if (done >= tl.steps.length) return tl.fullText;
  let text = '';
  for (let i = 0; i < done; i++) {
    const s = tl.steps[i]!;
    if (s.kind === 'delta') text += tl.pieces[s.piece];
  }
  return text;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Splits text into `n` non-empty pieces on code-point boundaries (padding short text). */
export function splitText(text: string, n: number): string[] {
  if (n <= 0) return [];
  // Without surrogate pairs code units are code points: no need for an array of characters.
  if (text.length >= n && !SURROGATE.test(text)) {
    const pieces: string[] = [];
    for (let i = 0; i < n; i++) pieces.push(text.slice(Math.floor((i * text.length) / n), Math.floor(((i + 1) * text.length) / n)));
    return pieces;
  }
  const chars = Array.from(text);
  while (chars.length < n) chars.push('.');
  const pieces: string[] = [];
  for (let i = 0; i < n; i++) {
    pieces.push(chars.slice(Math.floor((i * chars.length) / n), Math.floor(((i + 1) * chars.length) / n)).join(''));
  }
  return pieces;
}
