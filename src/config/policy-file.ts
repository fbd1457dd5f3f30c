import { stringify } from 'yaml';
import { InputError } from '../errors.js';
import { type Policy, policySchema } from '../policy/schema.js';
import { readConfigFile } from './config-file.js';
import { type Origin, friendlyErrors, problem, zodProblems } from './zod-problems.js';

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

/** A policy as a policy file holds it (YAML), for a person to copy into one. */
export function policyYaml(policy: Policy): string {
  return stringify(policy);
}
