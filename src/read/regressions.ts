import { mcnemarExact } from '../score/stats.js';
import type { Verdict } from '../score/types.js';
import type { BatchRecord } from '../store/index.js';
import { itemsWithVerdicts, scorerVersionsOf, verdictByScorer, type VerdictReads } from './item-verdicts.js';

/** One scorer's verdicts on the items two batches share (paired by id; scorers matched by name). */
export interface ScorerComparison {
  scorer: string;
  /** The versions (settings hashes) that judged the paired items in A, and in B. */
  versionsA: string[];
  versionsB: string[];
  /** The scorer's settings differ between the batches: the same name, not the same judge. */
  versionsDiffer: boolean;
  /** Passed in A, failed in B. */
  regressed: number;
  /** Failed in A, passed in B. */
  fixed: number;
  bothPass: number;
  bothFail: number;
  /** Paired items without a pass or fail of this scorer in A, in B or in both. */
  unscored: number;
  /** Two-sided exact McNemar p on regressed against fixed: how likely a split this uneven is by chance alone. */
  p: number;
  /** {@link changeInWords}. */
  words: string;
}

/** An item whose verdict of one scorer turned: passed in A and fails in B (`regressed`), or the other way (`fixed`). */
export interface VerdictTurn {
  id: string;
  scorer: string;
  change: 'regressed' | 'fixed';
  /** The question B asked. */
  question: string;
  a: Pick<Verdict, 'pass' | 'score' | 'reason' | 'version'> | null;
  b: Pick<Verdict, 'pass' | 'score' | 'reason' | 'version'>;
}

/** Two batches' verdicts paired: the counts per scorer, and the turned items walked again on demand. */
export interface VerdictPairing {
  /** Ids in both batches. */
  paired: number;
  /** Every scorer either batch has a verdict of, by name. */
  scorers: ScorerComparison[];
  /** The items whose verdict turned `change`, in B's file order, one entry per scorer that turned. */
  turns(change: 'regressed' | 'fixed'): AsyncGenerator<VerdictTurn>;
}

/** Whether a split of regressed and fixed items is more than chance, in plain words (B: the second batch). */
export function changeInWords(regressed: number, fixed: number, p: number): string {
  if (regressed + fixed === 0) return 'no paired item changed its verdict';
  const pText = p < 0.001 ? 'p < 0.001' : `p = ${p.toPrecision(2)}`;
  if (p >= 0.05) return `could be chance (exact McNemar ${pText})`;
  return `more than chance: ${regressed > fixed ? 'worse' : 'better'} in the second batch (exact McNemar ${pText})`;
}

// A side's verdicts as one character per scorer (index in `names`): kept per item, not the verdicts.
const PASS = 'p';
const FAIL = 'f';
const NONE = '-';

function codeOf(v: Verdict | undefined): string {
  return v?.pass === true ? PASS : v?.pass === false ? FAIL : NONE;
}

interface Tally {
  versionsA: Set<string>;
  versionsB: Set<string>;
  regressed: number;
  fixed: number;
  bothPass: number;
  bothFail: number;
}

/**
 * Pairs the verdicts of batches A and B by item id and counts, per scorer, what turned. A's
 * verdicts are kept as one character per item and scorer; B's are streamed in pages, so
 * memory grows only with A's ids. The turned items are read again page by page from B.
 */
export async function pairVerdicts(store: VerdictReads, a: BatchRecord, b: BatchRecord, pageSize = 500): Promise<VerdictPairing> {
  const names: string[] = [];
  const index = new Map<string, number>();
  const indexOf = (name: string): number => {
    let i = index.get(name);
    if (i === undefined) index.set(name, (i = names.push(name) - 1));
    return i;
  };
  const tallies: Tally[] = [];
  const tallyOf = (i: number): Tally => (tallies[i] ??= { versionsA: new Set(), versionsB: new Set(), regressed: 0, fixed: 0, bothPass: 0, bothFail: 0 });
  const codesA = new Map<string, string>();
  for await (const { item, verdicts } of itemsWithVerdicts(store, a, pageSize)) {
    const codes: string[] = [];
    for (const [name, v] of verdicts) {
      const i = indexOf(name);
      while (codes.length < i) codes.push(NONE);
      codes[i] = codeOf(v);
      tallyOf(i).versionsA.add(v.version);
    }
    codesA.set(item.id, codes.join('').replace(/-+$/, ''));
  }
  let paired = 0;
  for await (const { item, verdicts } of itemsWithVerdicts(store, b, pageSize)) {
    const codes = codesA.get(item.id);
    if (codes === undefined) continue;
    paired++;
    for (const [name, v] of verdicts) {
      const i = indexOf(name);
      const t = tallyOf(i);
      t.versionsB.add(v.version);
      const pair = `${codes[i] ?? NONE}${codeOf(v)}`;
      if (pair === 'pf') t.regressed++;
      else if (pair === 'fp') t.fixed++;
      else if (pair === 'pp') t.bothPass++;
      else if (pair === 'ff') t.bothFail++;
    }
  }
  const scorers = names.map((scorer, i): ScorerComparison => {
    const t = tallyOf(i);
    const p = mcnemarExact(t.regressed, t.fixed);
    const [versionsA, versionsB] = [[...t.versionsA].sort(), [...t.versionsB].sort()];
    return {
      scorer,
      versionsA,
      versionsB,
      versionsDiffer: versionsA.length > 0 && versionsB.length > 0 && versionsA.join() !== versionsB.join(),
      regressed: t.regressed,
      fixed: t.fixed,
      bothPass: t.bothPass,
      bothFail: t.bothFail,
      unscored: paired - t.regressed - t.fixed - t.bothPass - t.bothFail,
      p,
      words: changeInWords(t.regressed, t.fixed, p),
    };
  });
  const versionsA = scorerVersionsOf(a);
  async function* turns(change: 'regressed' | 'fixed'): AsyncGenerator<VerdictTurn> {
    const [was, now] = change === 'regressed' ? [PASS, FAIL] : [FAIL, PASS];
    for await (const { item, verdicts } of itemsWithVerdicts(store, b, pageSize)) {
      const codes = codesA.get(item.id);
      if (codes === undefined) continue;
      let sideA: Map<string, Verdict> | null = null;
      for (const [name, v] of verdicts) {
        if (codeOf(v) !== now || codes[index.get(name)!] !== was) continue;
        // Only a turned item's own verdicts are read back from A, for their reasons.
        sideA ??= verdictByScorer(await store.verdictsOf(a.id, item.id), versionsA);
        const old = sideA.get(name);
        yield { id: item.id, scorer: name, change, question: item.question, a: old ? pick(old) : null, b: pick(v) };
      }
    }
  }
  return { paired, scorers, turns };
}

function pick(v: Verdict): Pick<Verdict, 'pass' | 'score' | 'reason' | 'version'> {
  return { pass: v.pass, score: v.score, reason: v.reason, version: v.version };
}

/** The whole of a pairing for a page: counts, then at most `limit` regressed and `limit` fixed items. */
export async function regressionSummary(
  store: VerdictReads,
  a: BatchRecord,
  b: BatchRecord,
  limit = 500,
): Promise<{ paired: number; scorers: ScorerComparison[]; regressed: VerdictTurn[]; fixed: VerdictTurn[]; more: boolean }> {
  const pairing = await pairVerdicts(store, a, b);
  const total = (k: 'regressed' | 'fixed'): number => pairing.scorers.reduce((n, s) => n + s[k], 0);
  const first = async (change: 'regressed' | 'fixed'): Promise<VerdictTurn[]> => {
    const out: VerdictTurn[] = [];
    if (total(change) === 0) return out;
    for await (const t of pairing.turns(change)) if (out.push(t) >= limit) break;
    return out;
  };
  const regressed = await first('regressed');
  const fixed = await first('fixed');
  return { paired: pairing.paired, scorers: pairing.scorers, regressed, fixed, more: total('regressed') > regressed.length || total('fixed') > fixed.length };
}
