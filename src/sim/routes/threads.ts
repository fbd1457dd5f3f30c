import type { SimDeps } from '../deps.js';
import { HttpError, type Reply } from '../http-io.js';
import type { RouteContext } from '../router.js';
import { threadMessageCount, threadMessages, type TranscriptSource } from '../thread-messages.js';
import { threadListItem, threadView } from '../views.js';

const LIST_LIMIT = 50;

/** GET /threads: the account's threads, newest first, up to fifty. */
export async function listThreads(ctx: RouteContext, d: SimDeps): Promise<Reply> {
  const all = d.store.threadsOf(ctx.account);
  const src = transcriptSource(d);
  const data = all.slice(0, LIST_LIMIT).map((t) => threadListItem(t, threadMessageCount(t, src)));
  return { status: 200, body: { object: 'list', data, has_more: all.length > LIST_LIMIT } };
}

/** GET /threads/{id}: the thread with its whole transcript. */
export async function getThread(ctx: RouteContext, d: SimDeps): Promise<Reply> {
  const id = ctx.params.id ?? '';
  const t = d.store.thread(ctx.account, id);
  if (!t) throw new HttpError(404, 'not_found', `thread ${id} not found`);
  return { status: 200, body: threadView(t, threadMessages(t, transcriptSource(d))) };
}

/** DELETE /threads/{id}: removes the thread and its transcript; its files stay until they expire. */
export async function deleteThread(ctx: RouteContext, d: SimDeps): Promise<Reply> {
  const id = ctx.params.id ?? '';
  const t = d.store.thread(ctx.account, id);
  if (!t) throw new HttpError(404, 'not_found', `thread ${id} not found`);
  d.store.deleteThread(id);
  d.journal?.threadDeleted(id);
  return { status: 200, body: { id, object: 'thread', deleted: true } };
}

function transcriptSource(d: SimDeps): TranscriptSource {
  return { run: (id) => d.store.runs.get(id), isFinished: (r) => d.engine.isFinished(r), state: (r) => d.engine.state(r) };
}
