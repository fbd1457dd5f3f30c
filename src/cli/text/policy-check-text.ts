import type { PauseDifference, PolicyCheck, ToolCheck, Verdict } from '../../policy/index.js';
import { oneLine } from '../../text/printable.js';
import { alignColumns } from './columns.js';

const p = (s: string, n = 120): string => oneLine(s, n);
const num = (n: number): string => String(Math.round(n * 100) / 100);

/** A verdict in words: `choose a,c`, `hold`. */
export function verdictText(v: { verdict: Verdict; chosen: readonly string[] }): string {
  return v.verdict === 'choose' ? `choose ${v.chosen.map((c) => p(c, 40)).join(',')}` : v.verdict;
}

const HEAD = ['tool', 'pauses', 'approve', 'decline', 'choose', 'hold', 'agree', 'differ', 'by policy', 'by person', 'undecided', 'cost actual', 'cost policy'];

function row(tool: string, c: Omit<ToolCheck, 'tool'>): string[] {
  return [
    tool, String(c.pauses), String(c.would.approve), String(c.would.decline), String(c.would.choose), String(c.would.hold),
    String(c.agrees), String(c.differs), String(c.actualBy.policy), String(c.actualBy.person), String(c.actualBy.none),
    num(c.actualCost), num(c.wouldCost),
  ];
}

/** One pause that would be decided otherwise, as a line (untrusted text made printable). */
export function differenceLine(d: PauseDifference): string {
  const who = d.actual.by === 'person' ? `by ${d.actual.person ? p(d.actual.person, 40) : 'a person'}` : 'by policy';
  const actual = d.actual.by === null ? 'still held, nobody decided' : `${verdictText(d.actual)} ${who}`;
  const cost = d.cost === null ? '' : `, cost ${num(d.cost)}`;
  return `${p(d.itemId, 60)} (${p(d.tool, 40)}${cost}): ${actual}; policy would ${verdictText(d.would)}: ${p(d.would.reason, 160)}`;
}

/**
 * `policy check` as text: a headline, a table by tool (what the policy would do, how often
 * that is what was done, who decided, the cost approved), then each pause that differs, those
 * from the budget apart from those from the rules.
 */
export function policyCheckText(policyFile: string, batch: string, c: PolicyCheck): string {
  const t = c.total;
  const lines = [`${p(policyFile)} on batch ${p(batch)}: ${t.pauses} pause${t.pauses === 1 ? '' : 's'}, ${t.agrees} decided the same, ${t.differs} otherwise${t.differs ? ` (${c.causes.budget} from the budget, ${c.causes.rules} from the rules)` : ''}`];
  if (t.pauses === 0) return `${lines[0]}\n`;
  const rows = [HEAD, ...c.tools.map((x) => row(p(x.tool, 40), x)), row('total', t)];
  lines.push(...alignColumns(rows, HEAD.map((_, i) => i).slice(1)));
  const groups = [
    ['budget', 'from the budget (its rules alone decide these as they were, the spend by then or batch_budget makes the difference)'],
    ['rules', 'from the rules'],
  ] as const;
  for (const [cause, why] of groups) {
    const ds = c.differences.filter((d) => d.cause === cause);
    if (ds.length === 0) continue;
    lines.push(`decided otherwise ${why} (${ds.length}):`);
    for (const d of ds) lines.push(`  ${differenceLine(d)}`);
  }
  return `${lines.join('\n')}\n`;
}
