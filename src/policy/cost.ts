/**
 * The one reader of a plan's cost (`input.cost` of a pause, as the service sent it). A cost
 * is trusted only when it is a finite number from 0 to {@link COST_BOUND}; anything else
 * (1e308, -140, "about 30 credits", NaN) is untrusted: no policy approves it, no sum counts
 * it, and every window shows it as sent, marked with {@link costDoubt}'s reason.
 */

/** The largest cost resq trusts, in credits (the README's "Safe by default"). */
export const COST_BOUND = 1e12;

/**
 * Why a pause's cost is not trusted (`above 1e12`, `negative`, `not a number`), or null when
 * it is trusted or the pause gives none.
 */
export function costDoubt(input: Record<string, unknown> | null | undefined): string | null {
  const c = input?.['cost'];
  if (c === undefined || c === null) return null;
  if (typeof c !== 'number' || Number.isNaN(c)) return 'not a number';
  if (c < 0) return 'negative';
  if (!(c <= COST_BOUND)) return `above ${COST_BOUND.toExponential().replace('e+', 'e')}`;
  return null;
}

/** The trusted cost a plan's input gives (`input.cost`, a finite number from 0 to {@link COST_BOUND}), or null. */
export function planCost(input: Record<string, unknown> | null | undefined): number | null {
  const c = input?.['cost'];
  return typeof c === 'number' && costDoubt(input) === null ? c : null;
}

/** The cost as the service sent it, for a window: `12`, or `1e308 (untrusted: above 1e12)`. Null when none was given. */
export function costShown(input: Record<string, unknown> | null | undefined): string | null {
  const c = input?.['cost'];
  if (c === undefined || c === null) return null;
  const doubt = costDoubt(input);
  const sent = typeof c === 'string' ? JSON.stringify(c.length > 80 ? `${c.slice(0, 79)}…` : c) : typeof c === 'number' ? numberText(c) : cutJson(c);
  return doubt ? `${sent} (untrusted: ${doubt})` : sent;
}

/** `1e308`, not `1e+308`: the number as a person writes it. */
function numberText(n: number): string {
  return String(n).replace('e+', 'e');
}

function cutJson(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}

/** What a decision records as its cost: `cost` when trusted, else 0 (an untrusted cost is never counted). */
export function recordedCost(cost: unknown): number {
  return typeof cost === 'number' && cost >= 0 && cost <= COST_BOUND ? cost : 0;
}

/**
 * A sum of costs read back from a store, kept finite: a total no trusted decisions can make
 * (rows written before costs were checked) reads as the largest finite number when too large
 * (the budget reads as spent), 0 when negative.
 */
export function keptTotal(n: unknown): number {
  const v = Number(n ?? 0);
  if (Number.isNaN(v) || v > Number.MAX_VALUE) return Number.MAX_VALUE;
  return v < 0 ? 0 : v;
}

/** The cost as the service sent it, marked (`1e308 (untrusted: above 1e12)`), when it is untrusted; else null. */
export function untrustedCost(input: Record<string, unknown> | null | undefined): string | null {
  return costDoubt(input) === null ? null : costShown(input);
}
