import type { ThrottleListener } from './throttle.js';
import { InputError } from '../errors.js';
import { AnswerSchema, type Answer } from './answer-schema.js';
import { ApiError, CancelUnsupportedError, NotFoundError } from './errors.js';
import { openFile, type OpenedFile } from './file-download.js';
import { followRun, type FollowDeps, type FollowRunOptions } from './follow-run.js';
import { ModelDescriptionSchema, ModelRunSchema, type ModelDescription, type ModelRun } from './model-schema.js';
import { resolveOptions, type ClientOptions, type ResolvedOptions } from './options.js';
import { parseResponse } from './parse-response.js';
import { pollUntil } from './poll.js';
import { checkIdempotencyKey, segment } from './request-target.js';
import type { RunEvent } from './run-events.js';
import { RunSchema, type Run } from './run-schema.js';
import { isModelRunFinished } from './run-status.js';
import { runEventStream } from './sse-stream.js';
import { ThreadListSchema, ThreadSchema, type Thread, type ThreadList } from './thread-schema.js';
import { Transport, type SendOptions } from './transport.js';
import type { z } from 'zod';

/** Options every call takes. */
export interface CallOptions {
  /** Aborting rejects with the signal's reason; an aborted request is never retried. */
  signal?: AbortSignal;
}

/** Options of {@link ServiceClient.openFile}. */
export interface OpenFileOptions extends CallOptions {
  /**
   * Attempts of the request, the first included. The downloader passes 1: it retries a whole
   * download (request and body) on one budget of its own. @default retry.maxAttempts
   */
  attempts?: number;
}

/** Options of calls that start something: the key makes retries safe. */
export interface IdempotentCallOptions extends CallOptions {
  /** `Idempotency-Key` (1–200 visible ASCII characters); the same key returns the same run. */
  idempotencyKey: string;
}

/** Where runs are cancelled when no route is given: the spec says a cancel exists, not where. */
export const DEFAULT_CANCEL_ROUTE = '/runs/{id}/cancel';

/** Options of {@link ServiceClient.cancelRun}. */
export interface CancelRunOptions extends CallOptions {
  /** Path template relative to the base URL, `{id}` standing for the run id. @default '/runs/{id}/cancel' */
  route?: string;
}

/** Checks a cancel route template: relative to the base URL, one `{id}`, no query. */
export function checkCancelRoute(route: string): string {
  if (!route.startsWith('/') || route.split('{id}').length !== 2 || /[?#\s]/.test(route))
    throw new InputError(`cancel route "${route}": must start with / and hold {id} once, e.g. ${DEFAULT_CANCEL_ROUTE}`);
  return route;
}

/** Body of `POST /runs`. */
export interface CreateRunBody {
  /** The question. */
  input: string;
  /** Continue this thread; omitted → a new thread. */
  thread_id?: string;
}

/** Body of `POST /models/{id}/runs`. */
export interface RunModelBody {
  /** The model's inputs by name, as its description lists them. */
  inputs: Record<string, unknown>;
  /** `sync` waits for the result, `async` forces a background job; omitted → the platform chooses. */
  mode?: 'sync' | 'async';
}

/**
 * Typed client of the Research Agent and Model Service: one method per endpoint, every
 * response validated, every request sent through one retrying transport.
 */
export class ServiceClient {
  #opts: ResolvedOptions;
  #transport: Transport;
  /** What following needs, made on the first follow and shared by all. */
  #followDeps: FollowDeps | null = null;

  /** Validates the options (a `ConfigError` names the bad one) and opens a connection pool. */
  constructor(opts: ClientOptions) {
    this.#opts = resolveOptions(opts);
    this.#transport = new Transport(this.#opts);
  }

  /** The base URL in use (no key in it). */
  get baseUrl(): string {
    return this.#opts.baseUrl.href;
  }

  /** `POST /runs`: starts a run (status `running`). Retried safely thanks to the key; 409 `thread_busy` is waited out. */
  async createRun(body: CreateRunBody, opts: IdempotentCallOptions): Promise<Run> {
    checkIdempotencyKey(opts.idempotencyKey);
    if (typeof body.input !== 'string') throw new InputError('run input must be a string');
    const json: CreateRunBody = { input: body.input };
    if (body.thread_id !== undefined) json.thread_id = body.thread_id;
    return this.#json(RunSchema, {
      method: 'POST',
      target: '/runs',
      json,
      idempotencyKey: opts.idempotencyKey,
      retryClass: 'idempotent',
      waitOnThreadBusy: true,
      admission: true,
      signal: opts.signal,
    });
  }

  /** `GET /runs/{id}`: the run with what it has written so far. */
  async getRun(id: string, opts: CallOptions = {}): Promise<Run> {
    return this.#get(RunSchema, `/runs/${segment(id, 'run id')}`, opts.signal);
  }

  /** One SSE connection: yields events until the server ends the stream or the final run event. */
  streamRunEvents(id: string, opts: CallOptions & { after?: number } = {}): AsyncGenerator<RunEvent> {
    return runEventStream(this.#transport, {
      runId: id,
      after: opts.after,
      signal: opts.signal,
      idleTimeoutMs: this.#opts.streamIdleTimeoutMs,
      maxEventChars: this.#opts.maxEventChars,
    });
  }

  /**
   * Follows a run to its end and resolves with the finished run (status neither `running`
   * nor `cancelling`; `requires_action` included). See {@link FollowRunOptions}.
   */
  followRun(id: string, opts: FollowRunOptions = {}): Promise<Run> {
    try {
      segment(id, 'run id');
    } catch (err) {
      return Promise.reject(err as Error);
    }
    // The follow's own promise, not one of this method's waiting on it: one less per run in flight.
    this.#followDeps ??= {
      transport: this.#transport,
      options: this.#opts,
      getRun: (runId: string, signal?: AbortSignal) => this.getRun(runId, { signal }),
    };
    return followRun(this.#followDeps, id, opts);
  }

  /** `POST /runs/{id}/respond`: answers a paused run; resolves with the new run (own id) that carries on. */
  async respond(id: string, answer: Answer, opts: IdempotentCallOptions): Promise<Run> {
    checkIdempotencyKey(opts.idempotencyKey);
    const checked = AnswerSchema.safeParse(answer);
    if (!checked.success) {
      throw new InputError(`answer does not match any known answer shape: ${checked.error.issues[0]?.message ?? ''}`);
    }
    return this.#json(RunSchema, {
      method: 'POST',
      target: `/runs/${segment(id, 'run id')}/respond`,
      json: { answer },
      idempotencyKey: opts.idempotencyKey,
      retryClass: 'idempotent',
      waitOnThreadBusy: true,
      signal: opts.signal,
    });
  }

  /**
   * Cancels a run (`POST /runs/{id}/cancel`, or `opts.route`); resolves with the run as the
   * service answered (`cancelling`, or already finished). Safe to repeat. A 404 or 405 means
   * the service has no cancel at that route: a {@link CancelUnsupportedError}.
   */
  async cancelRun(id: string, opts: CancelRunOptions = {}): Promise<Run> {
    const route = checkCancelRoute(opts.route ?? DEFAULT_CANCEL_ROUTE);
    const target = route.replace('{id}', segment(id, 'run id'));
    try {
      return await this.#json(RunSchema, { method: 'POST', target, json: {}, retryClass: 'idempotent', signal: opts.signal });
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 405)) throw new CancelUnsupportedError(route, err.status, { cause: err });
      throw err;
    }
  }

  /** Opens a file for streaming; the key goes only to the base URL's origin (see `openFile`). */
  async openFile(url: string, opts: OpenFileOptions = {}): Promise<OpenedFile> {
    return openFile(this.#transport, url, opts.signal, opts.attempts);
  }

  /** `GET /threads`: the account's threads, newest first, up to fifty. */
  async listThreads(opts: CallOptions = {}): Promise<ThreadList> {
    return this.#get(ThreadListSchema, '/threads', opts.signal);
  }

  /** `GET /threads/{id}`: the thread with its messages. */
  async getThread(id: string, opts: CallOptions = {}): Promise<Thread> {
    return this.#get(ThreadSchema, `/threads/${segment(id, 'thread id')}`, opts.signal);
  }

  /**
   * `DELETE /threads/{id}`: resolves with the response body (its shape is not given; null
   * when empty). A 404 on a retry, after an attempt that may have reached the service,
   * means that attempt deleted it: resolves null instead of throwing.
   */
  async deleteThread(id: string, opts: CallOptions = {}): Promise<unknown> {
    const target = `/threads/${segment(id, 'thread id')}`;
    try {
      const res = await this.#transport.sendJson({ method: 'DELETE', target, retryClass: 'idempotent', signal: opts.signal });
      return res.data;
    } catch (err) {
      if (err instanceof NotFoundError && err.attempt > 1) return null;
      throw err;
    }
  }

  /** `GET /models/{id}`: the model's inputs and outputs. */
  async describeModel(id: string, opts: CallOptions = {}): Promise<ModelDescription> {
    return this.#get(ModelDescriptionSchema, `/models/${segment(id, 'model id')}`, opts.signal);
  }

  /**
   * `POST /models/{id}/runs`: 200 → finished inline; 202 → `running` with `poll_url`.
   * Not idempotent per the spec (the key is sent when given, but the spec does not promise
   * it is honoured here), so it is retried only when the service provably did not act:
   * 429, and failures before a connection was made. A 5xx or a dropped connection is thrown:
   * the model may have run and charged credits.
   */
  async runModel(
    id: string,
    body: RunModelBody,
    opts: CallOptions & { idempotencyKey?: string } = {},
  ): Promise<{ httpStatus: number; run: ModelRun }> {
    if (opts.idempotencyKey !== undefined) checkIdempotencyKey(opts.idempotencyKey);
    const json: RunModelBody = { inputs: body.inputs };
    if (body.mode !== undefined) json.mode = body.mode;
    const res = await this.#transport.sendJson({
      method: 'POST',
      target: `/models/${segment(id, 'model id')}/runs`,
      json,
      idempotencyKey: opts.idempotencyKey,
      retryClass: 'unsafe',
      admission: true,
      signal: opts.signal,
    });
    return { httpStatus: res.status, run: parseResponse(ModelRunSchema, res.data, res.request) };
  }

  /**
   * `GET /model-runs/{id}`, or the run's `poll_url`. A poll URL must be on the base URL's
   * origin (the key is never sent elsewhere): another origin is an `InputError`.
   */
  async getModelRun(idOrPollUrl: string, opts: CallOptions = {}): Promise<ModelRun> {
    return this.#get(ModelRunSchema, this.#modelRunTarget(idOrPollUrl), opts.signal);
  }

  /** Polls a model run every `modelPollIntervalMs` until it is not running; returns it at once when already finished. */
  async waitModelRun(run: ModelRun, opts: CallOptions & { onPoll?: (r: ModelRun) => void } = {}): Promise<ModelRun> {
    if (isModelRunFinished(run)) return run;
    const where = run.poll_url !== null && this.#transport.target(run.poll_url).sameOrigin ? run.poll_url : run.id;
    return pollUntil({
      read: () => this.getModelRun(where, { signal: opts.signal }),
      isDone: isModelRunFinished,
      intervalMs: this.#opts.modelPollIntervalMs,
      waitFirst: true,
      maxFailures: this.#opts.retry.maxAttempts,
      sleep: this.#opts.sleep,
      signal: opts.signal,
      onValue: opts.onPoll,
      onLog: this.#opts.onLog,
      id: run.id,
    });
  }

  /**
   * Subscribes to the service's HTTP 429s: one {@link ThrottleEvent} per attempt that got
   * one (`admission` marks run and model-run creates, the requests a cap limits). This is how
   * a batch runner lowers its cap; returns what unsubscribes.
   */
  onThrottle(listener: ThrottleListener): () => void {
    return this.#transport.throttle.subscribe(listener);
  }

  /** Aborts requests and streams in flight and closes the connection pool. */
  close(): Promise<void> {
    return this.#transport.close();
  }

  #modelRunTarget(idOrPollUrl: string): string {
    if (!/^https?:\/\//i.test(idOrPollUrl) && !idOrPollUrl.startsWith('/')) {
      return `/model-runs/${segment(idOrPollUrl, 'model run id')}`;
    }
    const target = this.#transport.target(this.#absolute(idOrPollUrl));
    if (!target.sameOrigin) {
      throw new InputError(`poll URL ${target.label} is not on the service's origin; refusing to send the key there`);
    }
    return target.url.href;
  }

  /** A root-relative poll URL (`/api/v1/model-runs/x`) is relative to the origin, not the base path. */
  #absolute(url: string): string {
    return url.startsWith('/') ? `${this.#opts.baseUrl.origin}${url}` : url;
  }

  async #get<S extends z.ZodType>(schema: S, target: string, signal: AbortSignal | undefined): Promise<z.infer<S>> {
    return this.#json(schema, { method: 'GET', target, retryClass: 'idempotent', signal });
  }

  async #json<S extends z.ZodType>(schema: S, req: SendOptions): Promise<z.infer<S>> {
    const res = await this.#transport.sendJson(req);
    return parseResponse(schema, res.data, res.request);
  }
}
