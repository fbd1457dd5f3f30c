/**
 * The one error family of resq. Every error the library throws on purpose is a
 * `ResqError` with a fixed machine-readable `code`; the CLI maps codes to exit codes
 * in one place (src/cli/exit-codes.ts). Anything else is a bug.
 */
export class ResqError extends Error {
  /** Stable machine-readable code, e.g. `RESQ_INPUT`. */
  readonly code: string = 'RESQ_ERROR';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** One problem in a user's file: where it is and what is wrong. */
export interface InputProblem {
  /** Path of the file as the user gave it. */
  file: string;
  /** 1-based line number, when the problem sits on a line. */
  line?: number;
  /** Field or key path, e.g. `question` or `confirm_scope.approve_max_cost`. */
  field?: string;
  /** What is wrong, for a person. */
  reason: string;
}

/** Formats a problem as `file:line: field: reason`. */
export function formatProblem(p: InputProblem): string {
  const where = p.line === undefined ? p.file : `${p.file}:${p.line}`;
  return p.field ? `${where}: ${p.field}: ${p.reason}` : `${where}: ${p.reason}`;
}

/** Bad user input (a question set, pipeline, policy or flag). The CLI exits 2. */
export class InputError extends ResqError {
  override readonly code: string = 'RESQ_INPUT';
  readonly problems: InputProblem[];
  constructor(problems: InputProblem[] | string, options?: { cause?: unknown }) {
    const list = typeof problems === 'string' ? [] : problems;
    const message =
      typeof problems === 'string' ? problems : problems.map(formatProblem).join('\n');
    super(message, options);
    this.problems = list;
  }
}

/** Missing or contradictory configuration (no base URL, no key, …). The CLI exits 2. */
export class ConfigError extends ResqError {
  override readonly code: string = 'RESQ_CONFIG';
}

/**
 * Another worker took this item over (this one's lease had expired: it was stopped or
 * hung). The step that found out changed nothing; the worker drops the item.
 */
export class LeaseLostError extends ResqError {
  override readonly code: string = 'RESQ_LEASE_LOST';
}

/**
 * A batch of this name was recorded meanwhile (another process loading the same file at
 * the same moment): the caller finds it and joins it instead.
 */
export class BatchExistsError extends ResqError {
  override readonly code: string = 'RESQ_BATCH_EXISTS';
}

/**
 * A person's answer reached an item that is not held (any more). Thrown by the store inside
 * the transaction that would have recorded it, so two answers never both land.
 */
export class ItemNotHeldError extends ResqError {
  override readonly code: string = 'RESQ_NOT_HELD';
  readonly itemId: string;
  /** The item's state when the answer arrived; null when there is no such item. */
  readonly state: string | null;
  // No parameter properties: the question reader's worker thread loads this file with Node's type stripping.
  constructor(itemId: string, state: string | null) {
    super(`item ${itemId} is not held (${state ?? 'no such item'})`);
    this.itemId = itemId;
    this.state = state;
  }
}

/**
 * The item was answered already (by another person, or by a policy): nothing was recorded
 * and nothing is sent twice. Says who answered and when.
 */
export class AlreadyAnsweredError extends ResqError {
  override readonly code: string = 'RESQ_ALREADY_ANSWERED';
  readonly itemId: string;
  /** Who answered: `policy`, or `person` with their name in {@link person}. */
  readonly by: 'policy' | 'person';
  /** The person's name, when a person answered and gave one. */
  readonly person: string | null;
  /** When the earlier answer was recorded (ISO 8601). */
  readonly answeredAt: string;
  /** The item's state now. */
  readonly state: string;
  // No parameter properties: the question reader's worker thread loads this file with Node's type stripping.
  constructor(itemId: string, by: 'policy' | 'person', person: string | null, answeredAt: string, state: string) {
    const who = by === 'policy' ? 'the policy' : person ? person : 'a person';
    super(`item "${itemId}" was already answered by ${who} at ${answeredAt} (now ${state}): nothing recorded, nothing sent twice`);
    this.itemId = itemId;
    this.by = by;
    this.person = person;
    this.answeredAt = answeredAt;
    this.state = state;
  }
}

/** A pause as a person saw it or as it waits now: its run, tool and cost (a plan's, else null). */
export interface PauseSeen {
  runId: string;
  tool: string;
  cost: number | null;
}

/** `99,999`: a cost as people read it in a refusal. */
function costWords(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 6 });
}

/** `cost 1 → 99,999`, or the tools (with any cost) when the two pauses are not two plans. */
function pauseChange(seen: PauseSeen | null, now: PauseSeen): string {
  if (seen?.cost != null && now.cost !== null) return `cost ${costWords(seen.cost)} → ${costWords(now.cost)}`;
  const words = (p: PauseSeen) => `${p.tool}${p.cost !== null ? ` cost ${costWords(p.cost)}` : ''}`;
  return seen ? `${words(seen)} → ${words(now)}` : `now ${words(now)}`;
}

/**
 * The item paused again since the person saw it: their answer was for an earlier pause (its
 * run), and is not given to the one waiting now. Nothing was recorded.
 */
export class PauseMovedError extends ResqError {
  override readonly code: string = 'RESQ_PAUSE_MOVED';
  readonly itemId: string;
  /** The pause the person answered (null when its run is not recorded). */
  readonly seen: PauseSeen | null;
  /** The pause waiting now. */
  readonly now: PauseSeen;
  /** Who answered the pause the person saw, and when (the policy, a person's name or `a person`), when recorded. */
  readonly seenAnsweredBy: { who: string; at: string } | null;
  // No parameter properties: the question reader's worker thread loads this file with Node's type stripping.
  constructor(itemId: string, seen: PauseSeen | null, now: PauseSeen, seenAnsweredBy: { who: string; at: string } | null = null) {
    super(`${itemId} paused again since you saw it (${pauseChange(seen, now)}): nothing recorded`);
    this.itemId = itemId;
    this.seen = seen;
    this.now = now;
    this.seenAnsweredBy = seenAnsweredBy;
  }
}

/**
 * A person's approval would take the batch's approved cost past its `batch_budget`, and they
 * did not say to go over it: nothing was recorded. Names the totals.
 */
export class OverBudgetError extends ResqError {
  override readonly code: string = 'RESQ_OVER_BUDGET';
  /** Approved in the batch before this approval. */
  readonly approved: number;
  /** What this approval adds. */
  readonly cost: number;
  /** The batch's budget. */
  readonly budget: number;
  // No parameter properties: the question reader's worker thread loads this file with Node's type stripping.
  constructor(what: string, approved: number, cost: number, budget: number) {
    const total = approved + cost;
    const pct = Math.round((total / Math.max(budget, 1e-9)) * 100);
    super(`approving ${what} (cost ${costWords(cost)}) takes the batch's approved cost to ${costWords(total)} of its budget ${costWords(budget)} (${pct}%): nothing recorded`);
    this.approved = approved;
    this.cost = cost;
    this.budget = budget;
  }

  /** The approved cost this approval would reach. */
  get total(): number {
    return this.approved + this.cost;
  }
}
