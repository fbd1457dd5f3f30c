import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  external_exports
} from "./chunk-UUEOY5IK.mjs";

// src/policy/schema.ts
var confirmScopeSchema = external_exports.strictObject({
  /** Approve a plan whose `input.cost` is at most this (no cost given counts as 0). */
  approve_max_cost: external_exports.number().nonnegative(),
  /** Most cost approved in one batch (by policy and people); absent means no cap. */
  batch_budget: external_exports.number().nonnegative().optional(),
  /** Over either limit: decline (the narrow alternative) or hold for a person. @default 'hold' */
  otherwise: external_exports.enum(["decline", "hold"]).default("hold")
});
var askChoiceSchema = external_exports.strictObject({
  /** Option ids in order of preference: the first one offered is chosen. @default [] */
  prefer: external_exports.array(external_exports.union([external_exports.string().min(1), external_exports.int()])).default([]),
  /** No preferred option offered: first | all (needs allowMultiple) | decline | hold. @default 'hold' */
  otherwise: external_exports.enum(["first", "all", "decline", "hold"]).default("hold"),
  /** Sent with the answer for the agent to read. */
  note: external_exports.string().min(1).optional()
});
var policySchema = external_exports.strictObject({
  confirm_scope: confirmScopeSchema.optional(),
  ask_choice: askChoiceSchema.optional(),
  /** approve | decline | hold. */
  request_quality_image: external_exports.enum(["approve", "decline", "hold"]).optional(),
  unknown: external_exports.literal("hold", { error: `must be "hold": an unknown tool's answer cannot be guessed, so it waits for a person` }).optional()
});

export {
  policySchema
};
//# sourceMappingURL=chunk-O6UYGKUI.mjs.map
