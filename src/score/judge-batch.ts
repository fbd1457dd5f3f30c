import { randomUUID } from 'node:crypto';
import { BatchExistsError, InputError } from '../errors.js';
import type { Policy } from '../policy/index.js';
import type { BatchRecord, BatchStore, ItemRecord, ReadStore, WorkerStore } from '../store/index.js';
import { judgePrompt } from './judge-prompt.js';
import type { ScorerSpec } from './types.js';

// The agent judge's companion batch: `<batch>.judge`, an ordinary batch of agent runs whose
// settings name the batch it judges (`judgeOf`), one item per judged item, scorer version and
// attempt, its question the judging prompt. The batch runner drives it like any batch: a key
// stored before each POST, leases, resume after kill -9, the cap, the policy and its budget.

/** What a judging item's meta says it judges. */
export interface JudgedRef {
  /** The judged item's id in the parent batch. */
  item: string;
  scorer: string;
  version: string;
}

/** The companion batch's name for a batch. */
export const judgeBatchName = (parent: Pick<BatchRecord, 'name'>): string => `${parent.name}.judge`;

/** Whether a batch is an agent judge's companion batch. */
export const isJudgeBatch = (b: Pick<BatchRecord, 'settings'>): boolean => typeof b.settings.judgeOf === 'string';

/**
 * A judging item's id: the judged item, its attempt, the scorer and its version, and for
 * `--rescore` a round of its own. The same judging asked again is the same id, kept as it
 * is by the append: it is asked once, however often `resq score` is started.
 */
export function judgeItemId(item: Pick<ItemRecord, 'id' | 'attempt'>, spec: Pick<ScorerSpec, 'name' | 'version'>, round: string | null): string {
  return `${item.id}|a${item.attempt}|${spec.name}|${spec.version}${round ? `|${round}` : ''}`;
}

/** What a judging item judges, read from its meta; null for an item that is not a judging. */
export function judgedRefOf(item: Pick<ItemRecord, 'meta'>): JudgedRef | null {
  const j = (item.meta as { judges?: unknown }).judges;
  if (j === null || typeof j !== 'object') return null;
  const { item: id, scorer, version } = j as Record<string, unknown>;
  return typeof id === 'string' && typeof scorer === 'string' && typeof version === 'string' ? { item: id, scorer, version } : null;
}

/**
 * The policy judging runs go by: the judged batch's own rules where it has them, its
 * `batch_budget` whole (the judge batch spends with the judged batch's budget: the store holds
 * each decision of either to what both have spent, at the moment it is made), and every pause
 * it has no rule for declined (`unknown` tools, whose answer cannot be guessed, held).
 */
export function judgePolicy(parent: Policy | null): Policy {
  const scope = parent?.confirm_scope;
  return {
    // No rule: only a plan that costs nothing goes ahead; any other is declined.
    confirm_scope: scope ?? { approve_max_cost: 0, batch_budget: 0, otherwise: 'decline' },
    ask_choice: parent?.ask_choice ?? { prefer: [], otherwise: 'decline' },
    request_quality_image: parent?.request_quality_image ?? 'decline',
  };
}

/**
 * The companion batch of `parent`, created (empty) when it has none yet; one another process
 * created meanwhile is taken.
 * @throws {InputError} when a batch of that name exists and judges another batch, or none.
 */
export async function ensureJudgeBatch(store: BatchStore, parent: BatchRecord): Promise<BatchRecord> {
  const name = judgeBatchName(parent);
  const mine = (b: BatchRecord): BatchRecord => {
    if (b.settings.judgeOf !== parent.id) throw new InputError(`batch "${name}" exists and does not judge batch "${parent.name}": rename it to judge this batch with an agent scorer`);
    return b;
  };
  const found = await store.findBatch(name);
  if (found) return mine(found);
  const id = randomUUID();
  const loader = await store.beginBatchLoad({
    id,
    name,
    kind: 'runs',
    sourcePath: `judge:${parent.id}`,
    sourceSha256: '',
    baseUrl: parent.baseUrl,
    settings: { ...parent.settings, download: { ...parent.settings.download, enabled: false }, judgeOf: parent.id, notify: undefined, scorers: undefined },
    policy: judgePolicy((parent.policy as Policy | null) ?? null),
    // Its approvals and the judged batch's are held to one budget, together.
    spendsWith: parent.id,
  });
  try {
    await loader.commit([], '');
  } catch (e) {
    await loader.rollback();
    const other = e instanceof BatchExistsError ? await store.findBatch(name) : null;
    if (other) return mine(other);
    throw e;
  }
  return mine((await store.findBatch(id))!);
}

/**
 * Appends a judging for each item (its question the judging prompt, its meta naming what it
 * judges) in one write, which may come while the companion batch's workers run; judgings the
 * batch has already are kept, not asked again (one whose prompt changed, its answer replaced
 * without a new attempt, keeps its first asking). Returns how many were new.
 */
export async function appendJudgings(store: Pick<BatchStore, 'appendItems'>, judge: BatchRecord, spec: ScorerSpec, items: readonly ItemRecord[], round: string | null): Promise<number> {
  if (items.length === 0) return 0;
  const rubric = String(spec.settings.rubric ?? '');
  const { appended } = await store.appendItems(judge.id, {
    ids: items.map((it) => judgeItemId(it, spec, round)),
    lines: items.map((it) => it.line),
    questions: items.map((it) => judgePrompt({ rubric, question: it.question, expected: it.expected, answer: it.text })),
    threads: items.map(() => null),
    metas: items.map((it) => JSON.stringify({ judges: { item: it.id, scorer: spec.name, version: spec.version } satisfies JudgedRef })),
  });
  return appended;
}

/** What judging has cost a batch: its companion batch's runs and approved cost; null when it has none. */
export async function judgingCost(store: Pick<ReadStore, 'itemCounts' | 'approvedCost'> & Pick<BatchStore, 'findBatch'>, parent: BatchRecord): Promise<{ runs: number; cost: number } | null> {
  const judge = await store.findBatch(judgeBatchName(parent));
  if (!judge || judge.settings.judgeOf !== parent.id) return null;
  const counts = await store.itemCounts(judge.id);
  const runs = Object.values(counts).reduce((a, b) => a + b, 0) - counts.queued;
  return { runs, cost: await store.approvedCost(judge.id) };
}

/**
 * Whether an agent judge is judging `parent` now: its companion batch has judgings not yet
 * ended (held ones aside: they wait for a person) and a live worker driving them. A batch's
 * `batch.finished` waits for that, so its pass rates count the last answers' verdicts.
 */
export async function judgingUnderWay(
  store: Pick<ReadStore, 'itemCounts'> & Pick<BatchStore, 'findBatch'> & Pick<WorkerStore, 'liveWorkers'>,
  parent: BatchRecord,
  staleMs: number,
): Promise<boolean> {
  if (isJudgeBatch(parent) || !(parent.settings.scorers ?? []).some((s) => s.kind === 'agent')) return false;
  const judge = await store.findBatch(judgeBatchName(parent));
  if (!judge || judge.settings.judgeOf !== parent.id) return false;
  const c = await store.itemCounts(judge.id);
  if (c.queued + c.submitting + c.running + c.waiting === 0) return false;
  return (await store.liveWorkers(judge.id, staleMs)).length > 0;
}
