import { decide } from './decide.js';
import type { Policy } from './schema.js';
import { planCost, recordedCost } from './cost.js';
import { replaySteps } from './replay-order.js';

/** What was (or would be) done with a pause, in a word. */
export type Verdict = 'approve' | 'decline' | 'choose' | 'hold';

/** A past pause and what was decided on it (null: nothing yet: it is held, or its item ended first). */
export interface PastPause {
  itemId: string;
  runId: string;
  tool: string;
  input: Record<string, unknown>;
  /** When the pause came (ISO 8601); with every decision's `decidedAt`, the replay follows time (else the order given). */
  pausedAt?: string | null;
  decision: {
    answer: Record<string, unknown>;
    by: 'policy' | 'person';
    person: string | null;
    cost: number;
    /** When it was made (ISO 8601). */
    decidedAt?: string;
    /** The order decisions were made in (the store's row id): ties of `decidedAt` broken by it. */
    seq?: number;
  } | null;
}

/** One pause the policy would have decided otherwise. */
export interface PauseDifference {
  itemId: string;
  runId: string;
  tool: string;
  /** The plan's cost, when it gave one. */
  cost: number | null;
  actual: { verdict: Verdict; chosen: string[]; by: 'policy' | 'person' | null; person: string | null };
  would: { verdict: Verdict; chosen: string[]; reason: string };
  /**
   * `budget`: the policy's rules without its batch_budget decide the pause as it was done, so the
   * spend it saw (or the budget itself) makes the difference; `rules`: its rules decide otherwise.
   */
  cause: 'budget' | 'rules';
}

/** Per tool: how many pauses, what the policy would do with them, how often that is what was done, and the cost approved. */
export interface ToolCheck {
  tool: string;
  pauses: number;
  would: Record<Verdict, number>;
  /** Decided by policy / by a person / not decided, as it happened. */
  actualBy: { policy: number; person: number; none: number };
  agrees: number;
  differs: number;
  /** Cost approved as it happened, and under the policy (with what people approved on the pauses it would hold). */
  actualCost: number;
  wouldCost: number;
}

/** A policy replayed on a batch's pauses. */
export interface PolicyCheck {
  tools: ToolCheck[];
  total: Omit<ToolCheck, 'tool'>;
  differences: PauseDifference[];
  /** Each pause as replayed, in the order it reached the policy: its item, what the policy would do, and the cost that approves. */
  replay: { itemId: string; verdict: Verdict; cost: number }[];
  /** How many differences come from the budget, how many from the rules (see {@link PauseDifference.cause}). */
  causes: { budget: number; rules: number };
}

/**
 * An answer as a verdict: `approved: true|false` (plans, images, most tools), `decision:
 * chosen` with its ids, or `decision: declined`. An answer of another shape reads as approve.
 */
export function verdictOf(answer: Record<string, unknown>): { verdict: Verdict; chosen: string[] } {
  if (answer['decision'] === 'chosen') {
    const chosen = Array.isArray(answer['chosen']) ? answer['chosen'].map((c) => String(c)) : [];
    return { verdict: 'choose', chosen };
  }
  if (answer['decision'] === 'declined' || answer['approved'] === false) return { verdict: 'decline', chosen: [] };
  return { verdict: 'approve', chosen: [] };
}

const sameChoice = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);

const emptyCounts = (): Omit<ToolCheck, 'tool'> => ({
  pauses: 0,
  would: { approve: 0, decline: 0, choose: 0, hold: 0 },
  actualBy: { policy: 0, person: 0, none: 0 },
  agrees: 0,
  differs: 0,
  actualCost: 0,
  wouldCost: 0,
});

export { planCost } from './cost.js';

/** What a pause's replay gives: the policy's verdict and the cost it approves. */
interface Replayed {
  verdict: Verdict;
  chosen: string[];
  reason: string;
  cost: number;
}

/** The policy without its batch_budget: its rules alone. */
export function rulesOf(policy: Policy | null): Policy | null {
  if (!policy?.confirm_scope || policy.confirm_scope.batch_budget === undefined) return policy;
  const { batch_budget: _, ...rule } = policy.confirm_scope;
  return { ...policy, confirm_scope: rule };
}

const verdictOfDecision = (d: ReturnType<typeof decide>): { verdict: Verdict; chosen: string[] } => (d.kind === 'hold' ? { verdict: 'hold', chosen: [] } : verdictOf(d.answer));

const same = (a: { verdict: Verdict; chosen: readonly string[] }, b: { verdict: Verdict; chosen: readonly string[] }): boolean =>
  a.verdict === b.verdict && (a.verdict !== 'choose' || sameChoice(a.chosen, b.chosen));

/**
 * How `policy` would have decided each past pause, against what was decided, replayed as time
 * happened ({@link replaySteps}): each pause sees the spend as it stood when it came, that is
 * what the policy would itself have approved before it, plus what people had approved by then
 * on the pauses it would hold (those go to a person again, who is taken to decide as before,
 * when they did). Pure. A pause agrees when the verdicts are the same (a choice: the same ids);
 * a pause still undecided is `hold`. Replayed with the policy a batch ran, every pause that
 * policy decided agrees. Each difference says whether it comes from the budget or the rules.
 */
export function checkPolicy(policy: Policy | null, pauses: readonly PastPause[]): PolicyCheck {
  const byTool = new Map<string, Omit<ToolCheck, 'tool'>>();
  const total = emptyCounts();
  const differences: PauseDifference[] = [];
  const replay: PolicyCheck['replay'] = [];
  const rules = rulesOf(policy);
  const replayed = new Map<number, Replayed>();
  const personDone = new Set<number>();
  let approved = 0;
  // A decision recorded before costs were checked may hold an untrusted one: never counted.
  const actualCostOf = (p: PastPause): number => recordedCost(p.decision?.cost ?? 0);
  for (const step of replaySteps(pauses)) {
    const p = pauses[step.index]!;
    if (step.kind === 'person') {
      // Held by the policy: a person decides it again, as they did, and spends what they did, when they did.
      personDone.add(step.index);
      if (replayed.get(step.index)?.verdict === 'hold') approved += actualCostOf(p);
      continue;
    }
    const d = decide(policy, { tool: p.tool, input: p.input }, { approvedCost: approved });
    const would: Replayed = d.kind === 'hold' ? { verdict: 'hold', chosen: [], reason: d.reason, cost: 0 } : { ...verdictOf(d.answer), reason: d.reason, cost: d.cost };
    replayed.set(step.index, would);
    approved += would.cost;
    if (would.verdict === 'hold' && personDone.has(step.index)) approved += actualCostOf(p);
    const actual = p.decision ? verdictOf(p.decision.answer) : { verdict: 'hold' as Verdict, chosen: [] };
    const actualCost = actualCostOf(p);
    const wouldCost = would.verdict === 'hold' && p.decision?.by === 'person' ? actualCost : would.cost;
    const agrees = same(would, actual);
    for (const c of [total, byTool.get(p.tool) ?? byTool.set(p.tool, emptyCounts()).get(p.tool)!]) {
      c.pauses++;
      c.would[would.verdict]++;
      c.actualBy[p.decision?.by ?? 'none']++;
      c.actualCost += actualCost;
      c.wouldCost += wouldCost;
      if (agrees) c.agrees++;
      else c.differs++;
    }
    replay.push({ itemId: p.itemId, verdict: would.verdict, cost: wouldCost });
    if (!agrees) {
      const byRules = rules === policy ? null : verdictOfDecision(decide(rules, { tool: p.tool, input: p.input }, { approvedCost: 0 }));
      differences.push({
        itemId: p.itemId,
        runId: p.runId,
        tool: p.tool,
        cost: planCost(p.input),
        actual: { ...actual, by: p.decision?.by ?? null, person: p.decision?.person ?? null },
        would: { verdict: would.verdict, chosen: would.chosen, reason: would.reason },
        cause: byRules && same(byRules, actual) ? 'budget' : 'rules',
      });
    }
  }
  const tools = [...byTool].map(([tool, c]) => ({ tool, ...c })).sort((a, b) => a.tool.localeCompare(b.tool));
  const fromBudget = differences.filter((x) => x.cause === 'budget').length;
  return { tools, total, differences, replay, causes: { budget: fromBudget, rules: differences.length - fromBudget } };
}
