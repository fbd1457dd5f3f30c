import { type PastPause, planCost, verdictOf } from './check.js';
import type { Policy } from './schema.js';

/** A rule proposed from people's decisions, and why, tool by tool. */
export interface ProposedRule {
  /** The policy (only the sections of the tools decided), as a policy file holds it. */
  policy: Policy;
  /** One line per tool: what the people did and what the rule makes of it. */
  notes: string[];
  /** How many person decisions it was proposed from. */
  from: number;
}

const plural = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The policy rule that would decide these pauses as the people did. Pure. Only pauses a
 * person decided are read. confirm_scope: approve up to the largest approved cost below every
 * declined one, otherwise decline (when the two sides do not overlap) or hold; ask_choice:
 * prefer the chosen ids, most chosen first, otherwise hold (decline when every one was
 * declined); request_quality_image: what every person did, or hold when they differed; any
 * other tool: hold (an unknown tool's answer cannot be guessed).
 */
export function proposeRule(pauses: readonly PastPause[]): ProposedRule {
  const decided = pauses.filter((p) => p.decision?.by === 'person');
  const policy: Policy = {};
  const notes: string[] = [];
  const of = (tool: string) => decided.filter((p) => p.tool === tool).map((p) => ({ p, v: verdictOf(p.decision!.answer) }));

  const plans = of('confirm_scope');
  if (plans.length) {
    const cost = (p: PastPause): number => {
      const c = planCost(p.input);
      return c !== null && c >= 0 ? c : 0;
    };
    const approved = plans.filter((x) => x.v.verdict === 'approve').map((x) => cost(x.p));
    const declined = plans.filter((x) => x.v.verdict !== 'approve').map((x) => cost(x.p));
    const lowestDeclined = declined.length ? Math.min(...declined) : Infinity;
    const below = approved.filter((c) => c < lowestDeclined);
    const max = below.length ? Math.max(...below) : 0;
    const separable = below.length === approved.length;
    const otherwise = declined.length && separable ? 'decline' : 'hold';
    policy.confirm_scope = { approve_max_cost: max, otherwise };
    notes.push(
      `confirm_scope: ${plural(approved.length, 'plan')} approved, ${declined.length} declined: ` +
        (separable
          ? `approve up to ${max}, ${otherwise} above`
          : `approved and declined costs overlap: approve up to ${max} (below every declined plan), hold the rest`),
    );
  }

  const picks = of('ask_choice');
  if (picks.length) {
    const counts = new Map<string, number>();
    for (const x of picks) for (const id of x.v.chosen) counts.set(id, (counts.get(id) ?? 0) + 1);
    const prefer = [...counts].sort((a, b) => b[1] - a[1]).map(([id]) => id);
    const allDeclined = picks.every((x) => x.v.verdict === 'decline');
    policy.ask_choice = { prefer, otherwise: allDeclined ? 'decline' : 'hold' };
    notes.push(
      allDeclined
        ? `ask_choice: ${plural(picks.length, 'question')}, every one declined: decline`
        : `ask_choice: ${plural(picks.length, 'question')}: prefer ${prefer.map((id) => `${id} (${counts.get(id)}×)`).join(', ')}, hold when none is offered`,
    );
  }

  const images = of('request_quality_image');
  if (images.length) {
    const kinds = new Set(images.map((x) => x.v.verdict));
    const one = kinds.size === 1 ? [...kinds][0] : null;
    policy.request_quality_image = one === 'approve' ? 'approve' : one === 'decline' ? 'decline' : 'hold';
    notes.push(`request_quality_image: ${plural(images.length, 'image')}: ${one ? `every one ${one}d` : 'people differed: hold'}`);
  }

  const others = decided.filter((p) => !['confirm_scope', 'ask_choice', 'request_quality_image'].includes(p.tool));
  if (others.length) {
    policy.unknown = 'hold';
    const tools = [...new Set(others.map((p) => p.tool))];
    notes.push(`${tools.join(', ')}: ${plural(others.length, 'pause')} of tools resq cannot answer by policy: hold`);
  }
  return { policy, notes, from: decided.length };
}
