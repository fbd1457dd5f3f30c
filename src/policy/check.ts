import { decide } from './decide.js';
import type { Policy } from './schema.js';
import { planCost, recordedCost } from './cost.js';

/** What was (or would be) done with a pause, in a word. */
export type Verdict = 'approve' | 'decline' | 'choose' | 'hold';

/** A past pause and what was decided on it (null: nothing yet: it is held, or its item ended first). */
export interface PastPause {
  itemId: string;
  runId: string;
  tool: string;
  input: Record<string, unknown>;
  decision: { answer: Record<string, unknown>; by: 'policy' | 'person'; person: string | null; cost: number } | null;
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
  /** Each pause as replayed, in the order given: its item, what the policy would do, and the cost that approves. */
  replay: { itemId: string; verdict: Verdict; cost: number }[];
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

/**
 * How `policy` would have decided each past pause (in the order given: the order they were
 * recorded), against what was decided. Pure. The budget the policy replays against counts
 * what it would itself have approved, plus what people approved on the pauses it would hold
 * (those go to a person again, who is taken to decide as before). A pause agrees when the
 * verdicts are the same (a choice: the same ids); a pause still undecided is `hold`.
 */
export function checkPolicy(policy: Policy | null, pauses: readonly PastPause[]): PolicyCheck {
  const byTool = new Map<string, Omit<ToolCheck, 'tool'>>();
  const total = emptyCounts();
  const differences: PauseDifference[] = [];
  const replay: PolicyCheck['replay'] = [];
  let approved = 0;
  for (const p of pauses) {
    const d = decide(policy, { tool: p.tool, input: p.input }, { approvedCost: approved });
    const would = d.kind === 'hold' ? { verdict: 'hold' as Verdict, chosen: [] as string[], reason: d.reason, cost: 0 } : { ...verdictOf(d.answer), reason: d.reason, cost: d.cost };
    const actual = p.decision ? verdictOf(p.decision.answer) : { verdict: 'hold' as Verdict, chosen: [] };
    // A decision recorded before costs were checked may hold an untrusted one: never counted.
    const actualCost = recordedCost(p.decision?.cost ?? 0);
    // Held by the policy: a person decides it again, as they did (and spends what they did).
    const wouldCost = would.verdict === 'hold' && p.decision?.by === 'person' ? actualCost : would.cost;
    approved += wouldCost;
    const agrees = would.verdict === actual.verdict && (would.verdict !== 'choose' || sameChoice(would.chosen, actual.chosen));
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
      differences.push({
        itemId: p.itemId,
        runId: p.runId,
        tool: p.tool,
        cost: planCost(p.input),
        actual: { ...actual, by: p.decision?.by ?? null, person: p.decision?.person ?? null },
        would: { verdict: would.verdict, chosen: would.chosen, reason: would.reason },
      });
    }
  }
  const tools = [...byTool].map(([tool, c]) => ({ tool, ...c })).sort((a, b) => a.tool.localeCompare(b.tool));
  return { tools, total, differences, replay };
}
