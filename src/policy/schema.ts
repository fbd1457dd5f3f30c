import { z } from 'zod';

const confirmScopeSchema = z.strictObject({
  /** Approve a plan whose `input.cost` is at most this (no cost given counts as 0). */
  approve_max_cost: z.number().nonnegative(),
  /** Most cost approved in one batch (by policy and people); absent means no cap. */
  batch_budget: z.number().nonnegative().optional(),
  /** Over either limit: decline (the narrow alternative) or hold for a person. @default 'hold' */
  otherwise: z.enum(['decline', 'hold']).default('hold'),
});

const askChoiceSchema = z.strictObject({
  /** Option ids in order of preference: the first one offered is chosen. @default [] */
  prefer: z.array(z.union([z.string().min(1), z.int()])).default([]),
  /** No preferred option offered: first | all (needs allowMultiple) | decline | hold. @default 'hold' */
  otherwise: z.enum(['first', 'all', 'decline', 'hold']).default('hold'),
  /** Sent with the answer for the agent to read. */
  note: z.string().min(1).optional(),
});

/**
 * An auto-answer policy, as written in YAML or JSON (keys are strict, so a typo is an
 * error). A missing section holds that tool's pauses for a person. `unknown` (any
 * other tool) accepts only `hold`: resq does not know what an unknown tool's answer
 * looks like, so it cannot decline one safely.
 */
export const policySchema = z.strictObject({
  confirm_scope: confirmScopeSchema.optional(),
  ask_choice: askChoiceSchema.optional(),
  /** approve | decline | hold. */
  request_quality_image: z.enum(['approve', 'decline', 'hold']).optional(),
  unknown: z
    .literal('hold', { error: 'must be "hold": an unknown tool\'s answer cannot be guessed, so it waits for a person' })
    .optional(),
});

/** A validated policy (defaults filled in). */
export type Policy = z.infer<typeof policySchema>;
