import type { HeldFact, OutboxClaim } from '../roles/outbox.js';
import { planCost, untrustedCost } from '../../policy/cost.js';

// Rows of the outbox as both adapters read them (PostgreSQL gives BIGINT columns as text).

/** An outbox row as read. */
export interface OutboxRow {
  id: number | string;
  batch_id: string;
  key: string;
  type: string;
  data: string;
  created_at: number | string;
  attempts: number | string;
  owner: string | null;
  fence: number | string;
  delivered: string;
}

/** A held fact's row joined to its run's pause. */
export interface HeldRow {
  item_id: string;
  run_id: string | null;
  reason: string | null;
  created_at: number | string;
  required_action: string | null;
}

function parseObject(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A claimed row as the port gives it (its held items read apart). */
export function claimFromRow(r: OutboxRow, held: HeldFact[] = []): OutboxClaim {
  const delivered: unknown = JSON.parse(r.delivered || '[]');
  return {
    row: Number(r.id),
    batchId: r.batch_id,
    key: r.key,
    type: r.type,
    data: parseObject(r.data),
    createdAt: Number(r.created_at),
    attempts: Number(r.attempts),
    owner: r.owner ?? '',
    fence: Number(r.fence),
    delivered: Array.isArray(delivered) ? delivered.map(String) : [],
    held,
  };
}

/** A held fact with its pause's tool and cost (`input.cost`). */
export function heldFromRow(r: HeldRow): HeldFact {
  const action = parseObject(r.required_action);
  const input = parseObject(JSON.stringify(action.input ?? {}));
  const cost = planCost(input);
  return {
    itemId: r.item_id,
    runId: r.run_id,
    reason: r.reason,
    tool: typeof action.tool === 'string' ? action.tool : null,
    cost,
    untrustedCost: untrustedCost(input),
    heldAt: Number(r.created_at),
  };
}

/** The held facts' row ids an `items.held` event lists (its `data.facts`). */
export function factIds(data: Record<string, unknown>): number[] {
  const f = data.facts;
  return Array.isArray(f) ? f.filter((x): x is number => Number.isInteger(x)) : [];
}
