import { COST_BOUND } from '../../policy/cost.js';

/**
 * A decision's cost as a sum may count it, in SQL (both adapters): the column when it is a
 * trusted cost (0 to COST_BOUND), else 0. Decisions record only trusted costs; this keeps a
 * row written before costs were checked from making a sum infinite or negative.
 */
export function trustedCostSql(column: string): string {
  return `CASE WHEN ${column} BETWEEN 0 AND ${COST_BOUND} THEN ${column} ELSE 0 END`;
}
