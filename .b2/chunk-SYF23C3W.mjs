import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  costDoubt,
  costShown,
  planCost
} from "./chunk-O4EQ2A5A.mjs";

// src/policy/decide.ts
function decide(policy, action, ctx) {
  if (!policy) return hold("no policy: held for a person");
  const input = action.input;
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return hold(`${action.tool}: input is not an object: held for a person`);
  }
  const fields = input;
  switch (action.tool) {
    case "confirm_scope":
      return confirmScope(policy.confirm_scope, fields, ctx.approvedCost);
    case "ask_choice":
      return askChoice(policy.ask_choice, fields);
    case "request_quality_image":
      return qualityImage(policy.request_quality_image);
    default:
      return hold(`no policy for tool "${action.tool}": held for a person`);
  }
}
function confirmScope(rule, input, approvedCost) {
  if (!rule) return hold("policy has no confirm_scope rule: held for a person");
  if (costDoubt(input) !== null) return hold(`confirm_scope: cost ${costShown(input)}: held for a person`);
  const cost = planCost(input) ?? 0;
  if (!Number.isFinite(approvedCost) || approvedCost < 0) {
    return hold("confirm_scope: cost approved so far is unknown: held for a person");
  }
  const max = rule.approve_max_cost;
  if (cost > max) return otherwise(rule.otherwise, `cost ${cost} is over approve_max_cost ${max}`);
  const total = approvedCost + cost;
  const budget = rule.batch_budget;
  if (budget !== void 0 && total > budget) {
    return otherwise(rule.otherwise, `cost ${cost} would bring the batch to ${total}, over batch_budget ${budget}`);
  }
  const within = budget === void 0 ? "" : `; batch total ${total} of ${budget}`;
  return { kind: "answer", answer: { approved: true }, cost, reason: `cost ${cost} is within approve_max_cost ${max}${within}` };
}
function otherwise(choice, why) {
  if (choice === "decline") {
    return { kind: "answer", answer: { approved: false }, cost: 0, reason: `${why}: declined (the narrow alternative)` };
  }
  return hold(`${why}: held for a person`);
}
function askChoice(rule, input) {
  if (!rule) return hold("policy has no ask_choice rule: held for a person");
  const ids = optionIds(input["options"]);
  if (typeof ids === "string") return hold(`ask_choice: ${ids}: held for a person`);
  const allowMultiple = input["allowMultiple"] ?? false;
  if (typeof allowMultiple !== "boolean") return hold("ask_choice: input.allowMultiple is not a boolean: held for a person");
  const withNote = (answer) => rule.note === void 0 ? answer : { ...answer, note: rule.note };
  for (const wanted of rule.prefer) {
    const found = ids.find((id) => String(id) === String(wanted));
    if (found !== void 0) {
      return { kind: "answer", answer: withNote({ decision: "chosen", chosen: [found] }), cost: 0, reason: `preferred option "${found}" is offered` };
    }
  }
  const none = rule.prefer.length === 0 ? "no preference given" : "no preferred option is offered";
  switch (rule.otherwise) {
    case "first":
      return { kind: "answer", answer: withNote({ decision: "chosen", chosen: [ids[0]] }), cost: 0, reason: `${none}: chose the first` };
    case "all":
      if (!allowMultiple) return hold(`${none}, and the question allows one choice, not all: held for a person`);
      return { kind: "answer", answer: withNote({ decision: "chosen", chosen: ids }), cost: 0, reason: `${none}: chose all` };
    case "decline":
      return { kind: "answer", answer: withNote({ decision: "declined" }), cost: 0, reason: `${none}: declined` };
    case "hold":
      return hold(`${none}: held for a person`);
  }
}
function optionIds(options) {
  if (!Array.isArray(options)) return "input.options is not a list";
  if (options.length === 0) return "no options offered";
  const ids = [];
  for (const option of options) {
    const id = typeof option === "object" && option !== null ? option.id : void 0;
    const valid = typeof id === "string" && id !== "" || typeof id === "number" && Number.isFinite(id);
    if (!valid) return "an option has no usable id";
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}
function qualityImage(rule) {
  switch (rule) {
    case "approve":
      return { kind: "answer", answer: { approved: true }, cost: 0, reason: "policy approves quality images" };
    case "decline":
      return { kind: "answer", answer: { approved: false }, cost: 0, reason: "policy declines quality images" };
    case "hold":
      return hold("policy holds quality images for a person");
    case void 0:
      return hold("policy has no request_quality_image rule: held for a person");
  }
}
function hold(reason) {
  return { kind: "hold", reason };
}

export {
  decide
};
//# sourceMappingURL=chunk-SYF23C3W.mjs.map
