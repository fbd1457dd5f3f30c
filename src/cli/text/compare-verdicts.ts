import { once } from 'node:events';
import type { ScorerComparison, VerdictPairing, VerdictTurn } from '../../read/regressions.js';
import type { CliIo } from '../io.js';

/** One scorer's paired counts as a line: what turned, what held, and whether it is more than chance. */
function scorerLine(s: ScorerComparison, nameA: string, nameB: string, p: (s: string) => string): string {
  const versions = s.versionsDiffer ? `; versions differ (${s.versionsA.map(p).join(', ')} in ${nameA}, ${s.versionsB.map(p).join(', ')} in ${nameB}): the same name, other settings` : '';
  return `${p(s.scorer)}: ${s.regressed} regressed, ${s.fixed} fixed, ${s.bothPass} both pass, ${s.bothFail} both fail, ${s.unscored} unscored in either; ${s.words}${versions}`;
}

/** A turned item as a line: its id, the scorer, and what the later verdict said. */
function turnLine(t: VerdictTurn, p: (s: string) => string): string {
  return `${p(t.id)} [${p(t.scorer)}]: ${p(t.b.reason)}`;
}

/**
 * Writes the verdicts part of `resq compare` (nothing when neither batch has a verdict): text,
 * the counts per scorer then the regressed items then the fixed ones; JSON, one object per
 * scorer (`type: "scorer"`) then per turned item (`type: "regressed"` / `"fixed"`), streamed.
 */
export async function writeVerdicts(io: CliIo, pairing: VerdictPairing, nameA: string, nameB: string, json: boolean, p: (s: string) => string): Promise<void> {
  if (pairing.scorers.length === 0) return;
  const write = async (line: string): Promise<void> => {
    if (!io.stdout.write(line)) await once(io.stdout, 'drain');
  };
  if (json) {
    for (const s of pairing.scorers) await write(`${JSON.stringify({ type: 'scorer', ...s })}\n`);
    for (const change of ['regressed', 'fixed'] as const) for await (const t of pairing.turns(change)) await write(`${JSON.stringify({ type: change, ...t })}\n`);
    for (const s of pairing.scorers) io.stderr.write(`${scorerLine(s, nameA, nameB, p)}\n`);
    return;
  }
  await write(`verdicts on ${pairing.paired} paired items:\n`);
  for (const s of pairing.scorers) await write(`  ${scorerLine(s, nameA, nameB, p)}\n`);
  const heads = { regressed: `regressed (passed in ${nameA}, fail in ${nameB}):`, fixed: `fixed (failed in ${nameA}, pass in ${nameB}):` };
  for (const change of ['regressed', 'fixed'] as const) {
    if (!pairing.scorers.some((s) => s[change] > 0)) continue;
    await write(`${heads[change]}\n`);
    for await (const t of pairing.turns(change)) await write(`  ${turnLine(t, p)}\n`);
  }
}
