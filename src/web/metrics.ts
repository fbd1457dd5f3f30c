import { systemClock } from '../clock.js';
import { readBatchStatus } from '../read/batch-status.js';
import { readHeldWaits } from '../read/spend.js';
import type { BatchStore, ReadStore, ScoreStore } from '../store/index.js';

/** A label value in the Prometheus text format: backslash, quote and line break escaped. */
export function labelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

interface Family {
  name: string;
  help: string;
  type: 'gauge' | 'counter' | 'histogram';
  samples: string[];
}

/**
 * Every batch's figures in the Prometheus text format (version 0.0.4), read from the store,
 * so one `resq serve` reports a batch worked by many machines. Names carry the `resq_`
 * prefix, counters end in `_total`, and units are base units.
 */
export async function metricsText(store: BatchStore & ReadStore & ScoreStore, nowMs = systemClock.now()): Promise<string> {
  const fam = (name: string, type: Family['type'], help: string): Family => ({ name, type, help, samples: [] });
  const items = fam('resq_items', 'gauge', 'Items by batch and state.');
  const inFlight = fam('resq_runs_in_flight', 'gauge', 'Runs in flight at the service over every worker of the batch.');
  const cap = fam('resq_concurrency_cap', 'gauge', 'The batch concurrency: most runs in flight.');
  const adaptive = fam('resq_adaptive_cap', 'gauge', 'The lowered cap after HTTP 429 (equal to the cap when not lowered).');
  const workers = fam('resq_workers_live', 'gauge', 'Workers whose heartbeat is younger than 60 seconds, less those of this host whose process ended.');
  const held = fam('resq_items_held', 'gauge', 'Items waiting for a person to answer a pause.');
  const files = fam('resq_files', 'gauge', 'Files by batch and state.');
  const cost = fam('resq_approved_cost_credits_total', 'counter', 'Cost of the plans approved, in credits.');
  const rate = fam('resq_items_ended_per_second', 'gauge', 'Items ended per second over the time runs were running, in a recent window of ended items (absent before two ended).');
  const budget = fam('resq_budget_credits', 'gauge', 'The batch budget its policy sets (confirm_scope.batch_budget), in credits (absent without one).');
  const wait = fam('resq_held_wait_seconds', 'histogram', 'How long held items waited for a person: from the pause being recorded to the person\'s decision.');
  const pass = fam('resq_score_pass_ratio', 'gauge', "Each scorer's pass rate over the judged completed items: passed / (passed + failed) (absent before one is judged).");
  const eta = fam('resq_eta_seconds', 'gauge', 'Seconds until the unfinished items are done at that rate (absent without a rate or without a live worker).');
  for (const b of await store.listBatches()) {
    // The read model's status, as `resq status` and the page show it.
    const st = await readBatchStatus(store, b, { nowMs, heldLimit: 0 });
    const l = `batch="${labelValue(b.name)}"`;
    for (const [state, n] of Object.entries(st.counts)) items.samples.push(`resq_items{${l},state="${state}"} ${n}`);
    inFlight.samples.push(`resq_runs_in_flight{${l}} ${st.inFlight}`);
    cap.samples.push(`resq_concurrency_cap{${l}} ${st.concurrency}`);
    adaptive.samples.push(`resq_adaptive_cap{${l}} ${st.capLimit ?? st.concurrency}`);
    workers.samples.push(`resq_workers_live{${l}} ${st.liveWorkers}`);
    held.samples.push(`resq_items_held{${l}} ${st.held}`);
    for (const [state, n] of Object.entries(st.files)) files.samples.push(`resq_files{${l},state="${state}"} ${n}`);
    cost.samples.push(`resq_approved_cost_credits_total{${l}} ${st.approvedCost}`);
    if (st.ratePerS !== null) rate.samples.push(`resq_items_ended_per_second{${l}} ${st.ratePerS}`);
    if (st.etaS !== null) eta.samples.push(`resq_eta_seconds{${l}} ${st.etaS}`);
    // One sample per scorer name: a second version of a scorer (settings changed, not rescored) would repeat its labels.
    const named = new Set<string>();
    for (const s of st.scores) {
      if (s.passRate === null || named.has(s.name)) continue;
      named.add(s.name);
      pass.samples.push(`resq_score_pass_ratio{${l},scorer="${labelValue(s.name)}"} ${s.passRate}`);
    }
    if (st.budget !== null) budget.samples.push(`resq_budget_credits{${l}} ${st.budget}`);
    const h = await readHeldWaits(store, b.id);
    for (const x of h.buckets) wait.samples.push(`resq_held_wait_seconds_bucket{${l},le="${x.le}"} ${x.count}`);
    wait.samples.push(`resq_held_wait_seconds_bucket{${l},le="+Inf"} ${h.count}`, `resq_held_wait_seconds_sum{${l}} ${h.sum}`, `resq_held_wait_seconds_count{${l}} ${h.count}`);
  }
  return [items, inFlight, cap, adaptive, workers, held, files, cost, budget, rate, eta, pass, wait]
    .map((f) => [`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`, ...f.samples].join('\n'))
    .join('\n')
    .concat('\n');
}
