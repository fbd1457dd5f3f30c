import { z } from 'zod';
import { InputError } from '../errors.js';
import { readConfigFile } from './config-file.js';
import { type Origin, friendlyErrors, problem, zodProblems } from './zod-problems.js';

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

/**
 * Validates a policy value.
 * @param file the file it came from, for the problems (`file: confirm_scope.approve_max_cost: reason`).
 * @param origin where the value sits inside that file, and its lines, when known.
 * @throws {InputError} listing every problem.
 */
export function parsePolicy(value: unknown, file: string, origin: Omit<Origin, 'file'> = {}): Policy {
  const where: Origin = { ...origin, file };
  if (value === null || value === undefined) {
    throw new InputError([problem(where, where.prefix ?? [], 'empty: expected a mapping of tool names to rules')]);
  }
  const result = policySchema.safeParse(value, { error: friendlyErrors });
  if (!result.success) throw new InputError(zodProblems(result.error, where));
  return result.data;
}

/**
 * Reads and validates a policy file (YAML or JSON).
 * @throws {InputError} naming the file and, for syntax errors and schema problems, the line.
 */
export async function loadPolicyFile(path: string): Promise<Policy> {
  const doc = await readConfigFile(path);
  return parsePolicy(doc.value, path, { lineOf: doc.lineOf });
}
