import { systemClock } from '../clock.js';
import { isGoneHere } from '../runner/local-process.js';
import type { BatchStore, ReadStore } from '../store/index.js';
import { STALE_MS } from './views.js';

/** A label value in the Prometheus text format: backslash, quote and line break escaped. */
export function labelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

interface Family {
  name: string;
  help: string;
  type: 'gauge' | 'counter';
  samples: string[];
}

/**
 * Every batch's figures in the Prometheus text format (version 0.0.4), read from the store,
 * so one `resq serve` reports a batch worked by many machines. Names carry the `resq_`
 * prefix, counters end in `_total`, and units are base units.
 */
export async function metricsText(store: BatchStore & ReadStore, nowMs = systemClock.now()): Promise<string> {
  const fam = (name: string, type: Family['type'], help: string): Family => ({ name, type, help, samples: [] });
  const items = fam('resq_items', 'gauge', 'Items by batch and state.');
  const inFlight = fam('resq_runs_in_flight', 'gauge', 'Runs in flight at the service over every worker of the batch.');
  const cap = fam('resq_concurrency_cap', 'gauge', 'The batch concurrency: most runs in flight.');
  const adaptive = fam('resq_adaptive_cap', 'gauge', 'The lowered cap after HTTP 429 (equal to the cap when not lowered).');
  const workers = fam('resq_workers_live', 'gauge', 'Workers whose heartbeat is younger than 60 seconds, less those of this host whose process ended.');
  const held = fam('resq_items_held', 'gauge', 'Items waiting for a person to answer a pause.');
  const files = fam('resq_files', 'gauge', 'Files by batch and state.');
  const cost = fam('resq_approved_cost_credits_total', 'counter', 'Cost of the plans approved, in credits.');
  for (const b of await store.listBatches()) {
    const [o, live] = await Promise.all([store.overview(b.id, nowMs, STALE_MS), store.batchLive(b.id, 0)]);
    const l = `batch="${labelValue(b.name)}"`;
    for (const [state, n] of Object.entries(o.counts)) items.samples.push(`resq_items{${l},state="${state}"} ${n}`);
    inFlight.samples.push(`resq_runs_in_flight{${l}} ${live.inFlight}`);
    cap.samples.push(`resq_concurrency_cap{${l}} ${b.settings.concurrency}`);
    adaptive.samples.push(`resq_adaptive_cap{${l}} ${live.capLimit ?? b.settings.concurrency}`);
    workers.samples.push(`resq_workers_live{${l}} ${o.workers.filter((w) => !isGoneHere(w)).length}`);
    held.samples.push(`resq_items_held{${l}} ${o.counts.held}`);
    for (const [state, n] of Object.entries(o.files)) files.samples.push(`resq_files{${l},state="${state}"} ${n}`);
    cost.samples.push(`resq_approved_cost_credits_total{${l}} ${o.approvedCost}`);
  }
  return [items, inFlight, cap, adaptive, workers, held, files, cost]
    .map((f) => [`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`, ...f.samples].join('\n'))
    .join('\n')
    .concat('\n');
}
