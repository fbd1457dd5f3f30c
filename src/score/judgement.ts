import type { ScorerSpec, Verdict } from './types.js';

/** What a scorer says of one answer, before it is stamped with its scorer, version, time and judge. */
export interface Judgement {
  /** null: unscored (`reason` says why). */
  pass: boolean | null;
  /** 0..1, or null: none. */
  score: number | null;
  reason: string;
}

/** What a scorer sees of a completed item. */
export interface ScoreInput {
  id: string;
  question: string;
  /** The question set's expected answer; null: none. */
  expected: unknown;
  /** The answer's text; null: none. */
  text: string | null;
  /** The files the item's runs made (only read when a `files` scorer asks). */
  files?: readonly { name: string | null; role: string | null }[];
}

/** A judgement that leaves the item unscored, with why. */
export const unscored = (reason: string): Judgement => ({ pass: null, score: null, reason });

/** A pass or a fail, scored 1 or 0. */
export const judged = (pass: boolean, reason: string): Judgement => ({ pass, score: pass ? 1 : 0, reason });

/** The verdict of a judgement by `spec`, judged by `by` at `scoredAt`. */
export function verdictOf(spec: Pick<ScorerSpec, 'name' | 'version'>, j: Judgement, scoredAt: string, by: string): Verdict {
  return { scorer: spec.name, version: spec.version, pass: j.pass, score: j.pass === null ? null : j.score, reason: j.reason, scoredAt, by };
}

/** What judged for a scorer's verdicts: its kind, or `command:<name>` (the agent judge stamps `agent:<run id>`). */
export function judgedBy(spec: Pick<ScorerSpec, 'name' | 'kind'>): string {
  return spec.kind === 'command' ? `command:${spec.name}` : spec.kind;
}
