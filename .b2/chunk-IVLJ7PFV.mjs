import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/read/decision-text.ts
function knownWords(answer) {
  if (answer.approved === true) return "approved";
  if (answer.approved === false || answer.decision === "declined") return "declined";
  if (answer.decision === "chosen" && Array.isArray(answer.chosen)) return `chose ${answer.chosen.map(String).join(", ")}`;
  return null;
}
function decisionWords(answer) {
  return knownWords(answer) ?? JSON.stringify(answer);
}
function answerInWords(answer) {
  const words = knownWords(answer);
  if (words === null) return JSON.stringify(answer);
  return typeof answer.note === "string" && answer.note !== "" ? `${words} (note: ${JSON.stringify(answer.note)})` : words;
}
function decisionNote(d) {
  const inAnswer = typeof d.answer.note === "string" ? d.answer.note : null;
  return d.by === "person" ? d.reason ?? inAnswer : inAnswer;
}
function deciderName(d) {
  return d.by === "policy" ? "the policy" : d.person ?? "a person";
}
function decisionInWords(d) {
  return `${d.tool}: ${answerInWords(d.answer)} by ${deciderName(d)}`;
}

export {
  decisionWords,
  decisionNote,
  deciderName,
  decisionInWords
};
//# sourceMappingURL=chunk-IVLJ7PFV.mjs.map
