import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/errors.ts
var ResqError = class extends Error {
  /** Stable machine-readable code, e.g. `RESQ_INPUT`. */
  code = "RESQ_ERROR";
  constructor(message, options) {
    super(message, options);
    this.name = new.target.name;
  }
};
function formatProblem(p) {
  const where = p.line === void 0 ? p.file : `${p.file}:${p.line}`;
  return p.field ? `${where}: ${p.field}: ${p.reason}` : `${where}: ${p.reason}`;
}
var InputError = class extends ResqError {
  code = "RESQ_INPUT";
  problems;
  constructor(problems, options) {
    const list = typeof problems === "string" ? [] : problems;
    const message = typeof problems === "string" ? problems : problems.map(formatProblem).join("\n");
    super(message, options);
    this.problems = list;
  }
};
var ConfigError = class extends ResqError {
  code = "RESQ_CONFIG";
};
var LeaseLostError = class extends ResqError {
  code = "RESQ_LEASE_LOST";
};
var BatchExistsError = class extends ResqError {
  code = "RESQ_BATCH_EXISTS";
};
var ItemNotHeldError = class extends ResqError {
  code = "RESQ_NOT_HELD";
  itemId;
  /** The item's state when the answer arrived; null when there is no such item. */
  state;
  // No parameter properties: the question reader's worker thread loads this file with Node's type stripping.
  constructor(itemId, state) {
    super(`item ${itemId} is not held (${state ?? "no such item"})`);
    this.itemId = itemId;
    this.state = state;
  }
};
var AlreadyAnsweredError = class extends ResqError {
  code = "RESQ_ALREADY_ANSWERED";
  itemId;
  /** Who answered: `policy`, or `person` with their name in {@link person}. */
  by;
  /** The person's name, when a person answered and gave one. */
  person;
  /** When the earlier answer was recorded (ISO 8601). */
  answeredAt;
  /** The item's state now. */
  state;
  // No parameter properties: the question reader's worker thread loads this file with Node's type stripping.
  constructor(itemId, by, person, answeredAt, state) {
    const who = by === "policy" ? "the policy" : person ? person : "a person";
    super(`item "${itemId}" was already answered by ${who} at ${answeredAt} (now ${state}): nothing recorded, nothing sent twice`);
    this.itemId = itemId;
    this.by = by;
    this.person = person;
    this.answeredAt = answeredAt;
    this.state = state;
  }
};
function costWords(n) {
  return n.toLocaleString("en-US", { maximumFractionDigits: 6 });
}
function pauseChange(seen, now) {
  if (seen?.cost != null && now.cost !== null) return `cost ${costWords(seen.cost)} \u2192 ${costWords(now.cost)}`;
  const words = (p) => `${p.tool}${p.cost !== null ? ` cost ${costWords(p.cost)}` : ""}`;
  return seen ? `${words(seen)} \u2192 ${words(now)}` : `now ${words(now)}`;
}
var PauseMovedError = class extends ResqError {
  code = "RESQ_PAUSE_MOVED";
  itemId;
  /** The pause the person answered (null when its run is not recorded). */
  seen;
  /** The pause waiting now. */
  now;
  /** Who answered the pause the person saw, and when (the policy, a person's name or `a person`), when recorded. */
  seenAnsweredBy;
  // No parameter properties: the question reader's worker thread loads this file with Node's type stripping.
  constructor(itemId, seen, now, seenAnsweredBy = null) {
    super(`${itemId} paused again since you saw it (${pauseChange(seen, now)}): nothing recorded`);
    this.itemId = itemId;
    this.seen = seen;
    this.now = now;
    this.seenAnsweredBy = seenAnsweredBy;
  }
};
var OverBudgetError = class extends ResqError {
  code = "RESQ_OVER_BUDGET";
  /** Approved in the batch before this approval. */
  approved;
  /** What this approval adds. */
  cost;
  /** The batch's budget. */
  budget;
  // No parameter properties: the question reader's worker thread loads this file with Node's type stripping.
  constructor(what, approved, cost, budget) {
    const total = approved + cost;
    const pct = Math.round(total / Math.max(budget, 1e-9) * 100);
    super(`approving ${what} (cost ${costWords(cost)}) takes the batch's approved cost to ${costWords(total)} of its budget ${costWords(budget)} (${pct}%): nothing recorded`);
    this.approved = approved;
    this.cost = cost;
    this.budget = budget;
  }
  /** The approved cost this approval would reach. */
  get total() {
    return this.approved + this.cost;
  }
};

export {
  ResqError,
  formatProblem,
  InputError,
  ConfigError,
  LeaseLostError,
  BatchExistsError,
  ItemNotHeldError,
  AlreadyAnsweredError,
  PauseMovedError,
  OverBudgetError
};
//# sourceMappingURL=chunk-4EMWZ36I.mjs.map
