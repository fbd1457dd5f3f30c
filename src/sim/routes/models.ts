import { isObject } from '../answers.js';
import type { SimDeps } from '../deps.js';
import { HttpError, idempotencyKeyOf, readJson, type Reply } from '../http-io.js';
import { checkInputs, describeModel, MODELS, type ModelDef } from '../model-catalog.js';
import type { ModelRunRecord } from '../records.js';
import type { RouteContext } from '../router.js';
import { modelRunView } from '../views.js';

/** GET /models/{id}: the model description. */
export async function describe(ctx: RouteContext, d: SimDeps): Promise<Reply> {
  return { status: 200, body: describeModel(findModel(ctx), d.origin()) };
}

/** POST /models/{id}/runs: runs a model inline (200) or as a background job (202). */
export async function runModel(ctx: RouteContext, d: SimDeps): Promise<Reply> {
  const key = idempotencyKeyOf(ctx.req);
  const body = await readJson(ctx.req, (text) => d.ledger.keyed(ctx.account, ctx.scope, key, text));
  const def = findModel(ctx);
  if (key !== undefined) {
    const id = d.store.idempotency.get(`${ctx.account} ${ctx.scope} ${key}`);
    const prior = id === undefined ? undefined : d.store.modelRuns.get(id);
    if (prior) return { ...reply(prior), headers: { 'idempotent-replayed': 'true' } };
  }
  if (!isObject(body) || !isObject(body.inputs)) throw new HttpError(400, 'invalid_request', 'body must be a JSON object with inputs (an object)');
  const mode = body.mode;
  if (mode !== undefined && mode !== null && mode !== 'sync' && mode !== 'async') {
    throw new HttpError(400, 'invalid_request', "mode must be 'sync' or 'async'");
  }
  const checked = checkInputs(def, body.inputs);
  if (typeof checked === 'string') throw new HttpError(400, 'invalid_request', checked);

  const background = mode === 'async' || def.gpu;
  const answersLater = mode === 'async' || (def.gpu && mode !== 'sync');
  // Remembered under its key by the start (one journal record with the run).
  const run = d.models.start(ctx.account, def, checked, background, answersLater, key, key === undefined ? undefined : `${ctx.account} ${ctx.scope} ${key}`);
  if (!answersLater) await run.done;
  return reply(run);
}

/** GET /model-runs/{id}: the model run; once its job is done, the result. */
export async function getModelRun(ctx: RouteContext, d: SimDeps): Promise<Reply> {
  const id = ctx.params.id ?? '';
  const run = d.store.modelRun(ctx.account, id);
  if (!run) throw new HttpError(404, 'not_found', `model run ${id} not found`);
  return { status: 200, body: modelRunView(run) };
}

function reply(run: ModelRunRecord): Reply {
  return { status: run.status === 'running' ? 202 : 200, body: modelRunView(run) };
}

function findModel(ctx: RouteContext): ModelDef {
  const id = ctx.params.id ?? '';
  const def = Object.hasOwn(MODELS, id) ? MODELS[id] : undefined;
  if (!def) throw new HttpError(404, 'not_found', `model ${id} not found`);
  return def;
}
