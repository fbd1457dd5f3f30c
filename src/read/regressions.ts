import { mcnemarExact } from '../score/stats.js';
import type { Verdict } from '../score/types.js';
import type { BatchRecord } from '../store/index.js';
import { itemsWithVerdicts, scorerVersionsOf, verdictByScorer, type VerdictReads } from './item-verdicts.js';
import { pairById } from './pair-by-id.js';

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
  /** The items whose verdict turned `change`, as paired (B's file order when both batches share it), one entry per scorer that turned. */
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

/** An item of one side reduced to what pairing needs: its id, and one character per scorer (by the scorer's index). */
interface Marks {
  id: string;
  codes: string;
}

/** A batch's items as {@link Marks}, read a page at a time; `seen` hears each scorer index and version met. */
async function* marksOf(store: VerdictReads, batch: BatchRecord, pageSize: number, indexOf: (name: string) => number, seen: (i: number, version: string) => void): AsyncGenerator<Marks> {
  for await (const { item, verdicts } of itemsWithVerdicts(store, batch, pageSize)) {
    const codes: string[] = [];
    for (const [name, v] of verdicts) {
      const i = indexOf(name);
      while (codes.length < i) codes.push(NONE);
      codes[i] = codeOf(v);
      seen(i, v.version);
    }
    yield { id: item.id, codes: codes.join('') };
  }
}

/**
 * Pairs the verdicts of batches A and B by item id and counts, per scorer, what turned. Both
 * batches are read side by side a page at a time ({@link pairById}): batches in the same
 * order hold nothing, others hold one character per scorer of each item not paired yet. The
 * turned items are found by reading both again, and only their own verdicts are read whole.
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
  let paired = 0;
  const sideA = marksOf(store, a, pageSize, indexOf, (i, v) => tallyOf(i).versionsA.add(v));
  const sideB = marksOf(store, b, pageSize, indexOf, (i, v) => tallyOf(i).versionsB.add(v));
  for await (const [x, y] of pairById(sideA, sideB)) {
    paired++;
    for (let i = 0; i < Math.max(x.codes.length, y.codes.length); i++) {
      const pair = `${x.codes[i] ?? NONE}${y.codes[i] ?? NONE}`;
      const t = tallyOf(i);
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
  const [versionsA, versionsB] = [scorerVersionsOf(a), scorerVersionsOf(b)];
  const ignore = (): void => undefined;
  async function* turns(change: 'regressed' | 'fixed'): AsyncGenerator<VerdictTurn> {
    const [was, now] = change === 'regressed' ? [PASS, FAIL] : [FAIL, PASS];
    for await (const [x, y] of pairById(marksOf(store, a, pageSize, indexOf, ignore), marksOf(store, b, pageSize, indexOf, ignore))) {
      const turned = names.filter((_, i) => x.codes[i] === was && y.codes[i] === now);
      if (turned.length === 0) continue;
      const [va, vb, item] = await Promise.all([store.verdictsOf(a.id, x.id), store.verdictsOf(b.id, y.id), store.getItem(b.id, y.id)]);
      const [oldOnes, newOnes] = [verdictByScorer(va, versionsA), verdictByScorer(vb, versionsB)];
      for (const name of turned) {
        const [old, v] = [oldOnes.get(name), newOnes.get(name)];
        // Judged again between the two reads: the pair is no longer one that turned.
        if (v?.pass !== (change === 'fixed')) continue;
        yield { id: y.id, scorer: name, change, question: item?.question ?? '', a: old ? pick(old) : null, b: pick(v) };
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
