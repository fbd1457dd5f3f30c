import { InputError } from '../../errors.js';

/**
 * A budget group, in SQL shared by both adapters: a batch and every batch that spends with it
 * (`batches.spends_with`, migration 032; an agent judge's companion batch spends with the batch
 * it judges). The group's leader is the batch the others name (`coalesce(spends_with, num)`:
 * groups are one level deep, a batch loaded to spend with a member spends with its leader).
 * Every budget check reads the group's spend, so a batch and its judge share one budget.
 */

/**
 * The num of the group leader of the batch `where` picks (a condition on `batches`, e.g.
 * `id = ?` or `num = $1`), as a scalar subquery; NULL when no batch matches.
 */
export const groupLeaderSql = (where: string): string => `(SELECT coalesce(spends_with, num) FROM batches WHERE ${where})`;

/**
 * One row, column `c`: the approved cost of the budget group of the batch `where` picks
 * (the sum of batch_spend over the leader and every batch spending with it); 0 when none is
 * approved. `where` appears once, so a positional parameter in it is bound once.
 */
export const groupSpendSql = (where: string): string =>
  `WITH leader(n) AS (SELECT coalesce(spends_with, num) FROM batches WHERE ${where})
   SELECT coalesce(sum(s.approved), 0) AS c FROM leader, batches b JOIN batch_spend s ON s.batch_num = b.num
   WHERE b.num = leader.n OR b.spends_with = leader.n`;

/**
 * The `spends_with` a new batch records when loaded to spend with the batch whose id it binds
 * at `param`: that batch's leader (a group stays one level deep).
 */
export const spendsWithSql = (param: string): string => groupLeaderSql(`id = ${param}`);

/**
 * The leader's num read for a new batch's `spendsWith` (by {@link spendsWithSql}).
 * @throws {InputError} when no batch has that id: a batch never silently gets a budget of its own.
 */
export function spendsWithNum(spendsWith: string, leader: unknown): number {
  if (leader === null || leader === undefined) throw new InputError(`batch "${spendsWith}" to spend with is not in the database`);
  // A batch's num as the database gives it (PostgreSQL's bigint as text): checked, never trusted.
  const num = Number(leader);
  if (!Number.isSafeInteger(num) || num < 0) throw new Error(`the database gave batch "${spendsWith}" a key that is not one: ${String(leader).slice(0, 40)}`);
  return num;
}
