import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import "./chunk-5OSXGZ5J.mjs";

// src/cli/text/compare-verdicts.ts
import { once } from "node:events";
function scorerLine(s, nameA, nameB, p) {
  const versions = s.versionsDiffer ? `; versions differ (${s.versionsA.map(p).join(", ")} in ${nameA}, ${s.versionsB.map(p).join(", ")} in ${nameB}): the same name, other settings` : "";
  return `${p(s.scorer)}: ${s.regressed} regressed, ${s.fixed} fixed, ${s.bothPass} both pass, ${s.bothFail} both fail, ${s.unscored} unscored in either; ${s.words}${versions}`;
}
function turnLine(t, p) {
  return `${p(t.id)} [${p(t.scorer)}]: ${p(t.b.reason)}`;
}
async function writeVerdicts(io, pairing, nameA, nameB, json, p) {
  if (pairing.scorers.length === 0) return;
  const write = async (line) => {
    if (!io.stdout.write(line)) await once(io.stdout, "drain");
  };
  if (json) {
    for (const s of pairing.scorers) await write(`${JSON.stringify({ type: "scorer", ...s })}
`);
    for (const change of ["regressed", "fixed"]) for await (const t of pairing.turns(change)) await write(`${JSON.stringify({ type: change, ...t })}
`);
    for (const s of pairing.scorers) io.stderr.write(`${scorerLine(s, nameA, nameB, p)}
`);
    return;
  }
  await write(`verdicts on ${pairing.paired} paired items:
`);
  for (const s of pairing.scorers) await write(`  ${scorerLine(s, nameA, nameB, p)}
`);
  const heads = { regressed: `regressed (passed in ${nameA}, fail in ${nameB}):`, fixed: `fixed (failed in ${nameA}, pass in ${nameB}):` };
  for (const change of ["regressed", "fixed"]) {
    if (!pairing.scorers.some((s) => s[change] > 0)) continue;
    await write(`${heads[change]}
`);
    for await (const t of pairing.turns(change)) await write(`  ${turnLine(t, p)}
`);
  }
}
export {
  writeVerdicts
};
//# sourceMappingURL=compare-verdicts-GOQ5AZSN.mjs.map
