import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  UnsafePathError,
  batchFolderName,
  fileNameFor,
  isInside,
  resolveInside,
  safeFolderName,
  uniqueName
} from "./chunk-BBCHWSG3.mjs";
import {
  backoffDelay,
  retryAfterMs
} from "./chunk-HDST666U.mjs";
import {
  FILE_RETENTION_MS
} from "./chunk-HXA3HFZH.mjs";
import {
  systemClock
} from "./chunk-64FYAIQV.mjs";
import {
  classifyFailure
} from "./chunk-YHPNXTWT.mjs";
import {
  DEFAULT_DOWNLOAD_CONCURRENCY
} from "./chunk-B3KHQ7FY.mjs";
import {
  ApiError,
  AuthError
} from "./chunk-CZMGSLWJ.mjs";
import {
  isGoneHere,
  processStart
} from "./chunk-IVI4HKH5.mjs";
import {
  ResqError
} from "./chunk-4EMWZ36I.mjs";
import {
  commandHint
} from "./chunk-BXVQVF7L.mjs";

// src/files/downloader.ts
import { hostname } from "node:os";
import { resolve as resolve2 } from "node:path";

// node_modules/p-queue/dist/lower-bound.js
function lowerBound(array, value, comparator) {
  let first = 0;
  let count = array.length;
  while (count > 0) {
    const step = Math.trunc(count / 2);
    let it = first + step;
    if (comparator(array[it], value) <= 0) {
      first = ++it;
      count -= step + 1;
    } else {
      count = step;
    }
  }
  return first;
}

// node_modules/p-queue/dist/priority-queue.js
var compactionThreshold = 100;
var PriorityQueue = class {
  // The slots before `#head` are `undefined`.
  #queue = [];
  // The queue is stored as a sorted array, but dequeued slots are left before `#head` until compaction. Only items from `#head` onward are live, which keeps repeated dequeues amortized O(1).
  #head = 0;
  #compact() {
    if (this.#head === 0) {
      return;
    }
    this.#queue.splice(0, this.#head);
    this.#head = 0;
  }
  // Only the live items, because a dequeued item with the same id or function is no longer part of the queue.
  #findIndex(isMatch) {
    for (let index = this.#head; index < this.#queue.length; index++) {
      if (isMatch(this.#queue[index])) {
        return index;
      }
    }
    return -1;
  }
  // Not `dequeue()`, which a subclass can override, because `remove()` also uses it.
  #removeFirst() {
    const item = this.#queue[this.#head];
    this.#queue[this.#head] = void 0;
    this.#head++;
    if (this.#head === this.#queue.length) {
      this.#queue.length = 0;
      this.#head = 0;
    } else if (this.#head > compactionThreshold && this.#head > this.#queue.length / 2) {
      this.#compact();
    }
    return item.run;
  }
  enqueue(run, options) {
    const { priority = 0, id } = options ?? {};
    const { size } = this;
    const element = {
      priority,
      id,
      run
    };
    if (size === 0) {
      this.#queue.length = 0;
      this.#head = 0;
      this.#queue.push(element);
      return;
    }
    if (this.#queue.at(-1).priority >= priority) {
      this.#queue.push(element);
      return;
    }
    this.#compact();
    const index = lowerBound(this.#queue, element, (a, b) => a.priority === b.priority ? 0 : b.priority - a.priority);
    this.#queue.splice(index, 0, element);
  }
  setPriority(id, priority) {
    const index = this.#findIndex((element) => element.id === id);
    if (index === -1) {
      throw new ReferenceError(`No promise function with the id "${id}" exists in the queue.`);
    }
    if (this.#queue[index].priority === priority) {
      return;
    }
    const [item] = this.#queue.splice(index, 1);
    this.enqueue(item.run, { priority, id });
  }
  remove(idOrRun) {
    const index = this.#findIndex((element) => (typeof idOrRun === "string" ? element.id : element.run) === idOrRun);
    if (index === this.#head) {
      this.#removeFirst();
    } else if (index !== -1) {
      this.#queue.splice(index, 1);
    }
  }
  dequeue() {
    return this.#head === this.#queue.length ? void 0 : this.#removeFirst();
  }
  filter(options) {
    const result = [];
    for (let index = this.#head; index < this.#queue.length; index++) {
      const element = this.#queue[index];
      if (element.priority === options.priority) {
        result.push(element.run);
      }
    }
    return result;
  }
  get size() {
    return this.#queue.length - this.#head;
  }
};

// node_modules/p-queue/dist/index.js
var maximumTimerDelay = 2147483647;
var asyncHooks = globalThis.process?.getBuiltinModule?.("node:async_hooks");
var bindAsyncContext = (function_) => {
  if (asyncHooks === void 0) {
    return function_;
  }
  const asyncResource = new asyncHooks.AsyncResource("PQueueTask");
  return () => asyncResource.runInAsyncScope(function_);
};
var validateTimeout = (timeout) => {
  if (timeout !== void 0 && !(Number.isFinite(timeout) && timeout > 0 && timeout <= maximumTimerDelay)) {
    throw new TypeError(`Expected \`timeout\` to be a positive finite number up to ${maximumTimerDelay}, got \`${timeout}\` (${typeof timeout})`);
  }
};
var validateLimit = (name, value) => {
  if (!(typeof value === "number" && value >= 1 && (value === Infinity || Number.isInteger(value)))) {
    throw new TypeError(`Expected \`${name}\` to be an integer from 1 and up or \`Infinity\`, got \`${String(value)}\` (${typeof value})`);
  }
};
var validateRateLimit = (interval, intervalCap, isStrict) => {
  validateLimit("intervalCap", intervalCap);
  if (!(Number.isFinite(interval) && interval >= 0)) {
    throw new TypeError(`Expected \`interval\` to be a finite number >= 0, got \`${String(interval)}\` (${typeof interval})`);
  }
  if (intervalCap !== Infinity && interval > maximumTimerDelay) {
    throw new TypeError(`Expected \`interval\` to be at most ${maximumTimerDelay} with an \`intervalCap\`, got \`${interval}\``);
  }
  if (isStrict && interval === 0) {
    throw new TypeError("The `strict` option requires a non-zero `interval`");
  }
  if (isStrict && intervalCap === Infinity) {
    throw new TypeError("The `strict` option requires a finite `intervalCap`");
  }
};
var PQueue = class extends EventTarget {
  #carryoverIntervalCount;
  #isIntervalIgnored;
  #intervalCount = 0;
  #intervalCap;
  #rateLimitedInInterval = false;
  #rateLimitFlushScheduled = false;
  #interval;
  /*
  Timestamp when the current interval window ends. Kept accurate at every window transition: `#initializeIntervalIfNeeded` sets it when a window starts and `#onInterval` advances it as the recurring timer rolls into each new window. This is the source of truth for whether a task added after the queue goes idle belongs to a fresh window, so it must not go stale.
  */
  #intervalEnd = 0;
  // Recurring timer that drives windows while the queue is actively processing. Absent (`undefined`) once the queue goes idle.
  #intervalId;
  // One-shot timer used while idle to resume at the next window boundary, since `#intervalId` is cleared when idle.
  #timeoutId;
  #strict;
  // Circular buffer implementation for better performance
  #strictTicks = [];
  #strictTicksStartIndex = 0;
  #queue;
  #queueClass;
  #pending = 0;
  // The `!` is needed because of https://github.com/microsoft/TypeScript/issues/32194
  #concurrency;
  #isPaused;
  // Use to assign a unique identifier to a promise function, if not explicitly specified
  #idAssigner = 1n;
  // Track currently running tasks for debugging
  #runningTasks = /* @__PURE__ */ new Set();
  // The `abort` listener of each signal, with the callbacks of the tasks that use the signal.
  #abortListeners = /* @__PURE__ */ new Map();
  // The waiting tasks, so that `.clear()` can reject their promises.
  #waitingTasks = /* @__PURE__ */ new Set();
  #timeout;
  constructor(options) {
    super();
    globalThis.process?.getBuiltinModule?.("node:events")?.setMaxListeners(Infinity, this);
    const { carryoverIntervalCount = false, intervalCap = Infinity, interval = 0, concurrency = Infinity, autoStart = true, queueClass = PriorityQueue, strict = false, timeout } = options ?? {};
    validateRateLimit(interval, intervalCap, strict);
    this.#carryoverIntervalCount = carryoverIntervalCount;
    this.#isIntervalIgnored = intervalCap === Infinity || interval === 0;
    this.#intervalCap = intervalCap;
    this.#interval = interval;
    this.#strict = strict;
    this.#queueClass = queueClass;
    this.#queue = new this.#queueClass();
    this.concurrency = concurrency;
    this.timeout = timeout;
    this.#isPaused = !autoStart;
    this.#setupRateLimitTracking();
  }
  // Calls `callback` when `signal` aborts, and returns a function that stops it. The tasks that share a signal share one listener on it, because Node.js searches all the listeners of a signal to add or remove one, so a listener for each task takes O(n²) time with many tasks.
  #onAbort(signal, callback) {
    let listener = this.#abortListeners.get(signal);
    if (!listener) {
      const callbacks = /* @__PURE__ */ new Set();
      const dispatch = () => {
        this.#abortListeners.delete(signal);
        for (const abortCallback of callbacks) {
          abortCallback();
        }
      };
      listener = { callbacks, dispatch };
      this.#abortListeners.set(signal, listener);
      signal.addEventListener("abort", dispatch, { once: true });
    }
    const currentListener = listener;
    currentListener.callbacks.add(callback);
    return () => {
      currentListener.callbacks.delete(callback);
      if (currentListener.callbacks.size > 0 || this.#abortListeners.get(signal) !== currentListener) {
        return;
      }
      this.#abortListeners.delete(signal);
      signal.removeEventListener("abort", currentListener.dispatch);
    };
  }
  #emit(event, detail) {
    this.dispatchEvent(new CustomEvent(event, { detail }));
  }
  async #onEvent(events, shouldHandle) {
    const eventList = Array.isArray(events) ? events : [events];
    return new Promise((resolve3) => {
      const controller = new AbortController();
      const listener = () => {
        if (shouldHandle && !shouldHandle()) {
          return;
        }
        controller.abort();
        resolve3();
      };
      for (const event of eventList) {
        this.addEventListener(event, listener, { signal: controller.signal });
      }
    });
  }
  // From the current state. `#rateLimitedInInterval` is what the events last reported, and it updates in a microtask.
  get #isRateLimitedNow() {
    if (this.#isIntervalIgnored || this.#queue.size === 0) {
      return false;
    }
    const now = Date.now();
    if (this.#strict) {
      this.#cleanupStrictTicks(now);
      return this.#getActiveTicksCount() >= this.#intervalCap;
    }
    const isWindowOver = this.#intervalId === void 0 && this.#intervalEnd <= now;
    const count = isWindowOver ? this.#intervalCountAtWindowStart : this.#intervalCount;
    return count >= this.#intervalCap;
  }
  // The tasks that still run count against the new window with `carryoverIntervalCount`.
  get #intervalCountAtWindowStart() {
    return this.#carryoverIntervalCount ? this.#pending : 0;
  }
  #updateRateLimitState() {
    const shouldBeRateLimited = this.#isRateLimitedNow;
    if (shouldBeRateLimited === this.#rateLimitedInInterval) {
      return;
    }
    this.#rateLimitedInInterval = shouldBeRateLimited;
    this.#emit(shouldBeRateLimited ? "rateLimit" : "rateLimitCleared");
  }
  #rollbackIntervalConsumption() {
    if (this.#isIntervalIgnored) {
      return;
    }
    this.#rollbackIntervalSlot();
    this.#scheduleRateLimitUpdate();
  }
  #scheduleRateLimitUpdate() {
    if (this.#isIntervalIgnored || this.#rateLimitFlushScheduled) {
      return;
    }
    this.#rateLimitFlushScheduled = true;
    queueMicrotask(() => {
      this.#rateLimitFlushScheduled = false;
      this.#updateRateLimitState();
    });
  }
  #setupRateLimitTracking() {
    if (this.#isIntervalIgnored) {
      return;
    }
    this.addEventListener("add", () => {
      if (this.#queue.size > 0) {
        this.#scheduleRateLimitUpdate();
      }
    });
    this.addEventListener("next", () => {
      this.#scheduleRateLimitUpdate();
    });
  }
  #cleanupStrictTicks(now) {
    while (this.#strictTicksStartIndex < this.#strictTicks.length) {
      const oldestTick = this.#strictTicks[this.#strictTicksStartIndex];
      if (oldestTick !== void 0 && now - oldestTick >= this.#interval) {
        this.#strictTicksStartIndex++;
      } else {
        break;
      }
    }
    const shouldCompact = this.#strictTicksStartIndex > 100 && this.#strictTicksStartIndex > this.#strictTicks.length / 2 || this.#strictTicksStartIndex === this.#strictTicks.length;
    if (!shouldCompact) {
      return;
    }
    this.#strictTicks = this.#strictTicks.slice(this.#strictTicksStartIndex);
    this.#strictTicksStartIndex = 0;
  }
  // Helper methods for interval consumption
  #consumeIntervalSlot(now) {
    if (this.#strict) {
      this.#strictTicks.push(now);
    } else {
      this.#intervalCount++;
    }
  }
  #rollbackIntervalSlot() {
    if (this.#strict) {
      if (this.#strictTicks.length > this.#strictTicksStartIndex) {
        this.#strictTicks.pop();
      }
      return;
    }
    if (this.#intervalCount > 0) {
      this.#intervalCount--;
    }
  }
  #getActiveTicksCount() {
    return this.#strictTicks.length - this.#strictTicksStartIndex;
  }
  get #doesIntervalAllowAnother() {
    if (this.#isIntervalIgnored) {
      return true;
    }
    const count = this.#strict ? this.#getActiveTicksCount() : this.#intervalCount;
    return count < this.#intervalCap;
  }
  get #doesConcurrentAllowAnother() {
    return this.#pending < this.#concurrency;
  }
  #next() {
    this.#pending--;
    if (this.#pending === 0) {
      this.#emit("pendingZero");
    }
    this.#processQueue();
    this.#emit("next");
  }
  #onResumeInterval() {
    this.#timeoutId = void 0;
    this.#onInterval();
    if (!this.#isPaused) {
      this.#initializeIntervalIfNeeded();
    }
  }
  #isIntervalPausedAt(now) {
    if (this.#strict) {
      this.#cleanupStrictTicks(now);
      const activeTicksCount = this.#getActiveTicksCount();
      if (activeTicksCount >= this.#intervalCap) {
        const oldestTick = this.#strictTicks[this.#strictTicksStartIndex];
        const delay = this.#interval - (now - oldestTick);
        this.#createIntervalTimeout(delay);
        return true;
      }
      return false;
    }
    if (this.#intervalId === void 0) {
      const delay = this.#intervalEnd - now;
      if (delay <= 0) {
        this.#intervalCount = this.#intervalCountAtWindowStart;
      } else {
        this.#createIntervalTimeout(delay);
        return true;
      }
    }
    return false;
  }
  #createIntervalTimeout(delay) {
    if (this.#timeoutId !== void 0) {
      return;
    }
    this.#timeoutId = setTimeout(() => {
      this.#onResumeInterval();
    }, delay);
  }
  #clearIntervalTimer() {
    if (this.#intervalId === void 0) {
      return;
    }
    clearInterval(this.#intervalId);
    this.#intervalId = void 0;
  }
  #clearTimeoutTimer() {
    if (this.#timeoutId === void 0) {
      return;
    }
    clearTimeout(this.#timeoutId);
    this.#timeoutId = void 0;
  }
  // Emits `empty`, and `idle` when no tasks run. For when the queue has no waiting tasks.
  #emitEmptyAndIdle() {
    this.#clearIntervalTimer();
    this.#emit("empty");
    if (this.#pending > 0 || this.#queue.size > 0) {
      return;
    }
    this.#clearTimeoutTimer();
    if (this.#strict) {
      this.#cleanupStrictTicks(Date.now());
    }
    this.#emit("idle");
  }
  #tryToStartAnother() {
    let isStarted;
    do {
      isStarted = this.#startNextTask();
    } while (isStarted === void 0);
    return isStarted;
  }
  // Returns `undefined` when it skipped a task whose signal aborted while it waited.
  #startNextTask() {
    if (this.#queue.size === 0) {
      this.#emitEmptyAndIdle();
      return false;
    }
    if (this.#isPaused) {
      if (!this.#doesIntervalAllowAnother) {
        this.#isIntervalPausedAt(Date.now());
      }
      return false;
    }
    const now = Date.now();
    const canInitializeInterval = !this.#isIntervalPausedAt(now);
    if (this.#doesIntervalAllowAnother && this.#doesConcurrentAllowAnother) {
      const job = this.#queue.dequeue();
      if (!this.#isIntervalIgnored) {
        this.#consumeIntervalSlot(now);
        this.#scheduleRateLimitUpdate();
      }
      if (canInitializeInterval) {
        this.#initializeIntervalIfNeeded();
      }
      const pendingBefore = this.#pending;
      job();
      if (this.#pending === pendingBefore) {
        this.#emit("next");
        return;
      }
      this.#emit("active");
      return true;
    }
    return false;
  }
  #initializeIntervalIfNeeded() {
    if (this.#isIntervalIgnored || this.#intervalId !== void 0 || this.#strict) {
      return;
    }
    this.#clearTimeoutTimer();
    this.#intervalId = setInterval(() => {
      this.#onInterval();
    }, this.#interval);
    this.#intervalEnd = Date.now() + this.#interval;
  }
  #onInterval() {
    if (!this.#strict) {
      if (this.#intervalId !== void 0) {
        if (this.#intervalCount === 0 && this.#pending === 0) {
          this.#clearIntervalTimer();
        } else {
          this.#intervalEnd = Date.now() + this.#interval;
        }
      }
      this.#intervalCount = this.#intervalCountAtWindowStart;
    }
    this.#processQueue();
    this.#scheduleRateLimitUpdate();
  }
  /**
  Executes all queued functions until it reaches the limit.
  */
  #processQueue() {
    while (this.#tryToStartAnother()) {
    }
  }
  // On an empty queue, `#processQueue()` emits `empty` and `idle`. An `idle` listener that sets `concurrency` or calls `.start()` would then recurse without end.
  #processWaitingTasks() {
    if (this.#queue.size > 0) {
      this.#processQueue();
    }
  }
  async #add(function_, options, waitingTask) {
    const id = options.id ?? (this.#idAssigner++).toString();
    options = {
      timeout: this.#timeout,
      ...options,
      id
    };
    validateTimeout(options.timeout);
    if (options.priority !== void 0 && (typeof options.priority !== "number" || Number.isNaN(options.priority))) {
      throw new TypeError(`Expected \`priority\` to be a number, got \`${String(options.priority)}\` (${typeof options.priority})`);
    }
    waitingTask.id = id;
    waitingTask.priority = options.priority ?? 0;
    return new Promise((resolve3, reject) => {
      if (options.signal?.aborted) {
        reject(options.signal.reason);
        return;
      }
      const run = bindAsyncContext(async () => {
        waitingTask.stopListeningForAbort?.();
        this.#waitingTasks.delete(waitingTask);
        if (options.signal?.aborted) {
          this.#rollbackIntervalConsumption();
          reject(options.signal.reason);
          return;
        }
        this.#pending++;
        const runningTask = {
          id,
          priority: waitingTask.priority,
          startTime: Date.now(),
          timeout: options.timeout
        };
        this.#runningTasks.add(runningTask);
        let { signal } = options;
        let stopListeningForAbort;
        let stopForwardingAbort;
        let timeoutId;
        try {
          if (options.timeout !== void 0) {
            const { signal: userSignal, timeout } = options;
            const taskController = new AbortController();
            timeoutId = setTimeout(() => {
              taskController.abort(new TimeoutError(`Task timed out after ${timeout}ms (queue has ${this.#pending} running, ${this.#queue.size} waiting)`));
            }, timeout);
            if (userSignal) {
              stopForwardingAbort = this.#onAbort(userSignal, () => {
                taskController.abort(userSignal.reason);
              });
            }
            signal = taskController.signal;
          }
          let operation;
          if (signal) {
            const abortSignal = signal;
            const abortPromise = new Promise((_resolve, rejectWithReason) => {
              stopListeningForAbort = this.#onAbort(abortSignal, () => {
                rejectWithReason(abortSignal.reason);
              });
            });
            operation = Promise.race([abortPromise, (async () => function_({ signal }))()]);
          } else {
            try {
              operation = function_({ signal });
            } catch (error) {
              operation = Promise.reject(error);
            }
          }
          const result = await operation;
          resolve3(result);
          this.#emit("completed", result);
        } catch (error) {
          reject(error);
          this.#emit("error", error);
        } finally {
          clearTimeout(timeoutId);
          stopListeningForAbort?.();
          stopForwardingAbort?.();
          this.#runningTasks.delete(runningTask);
          queueMicrotask(() => {
            this.#next();
          });
        }
      });
      const hasWaitingTasks = this.#queue.size > 0;
      this.#queue.enqueue(run, options);
      waitingTask.reject = reject;
      this.#waitingTasks.add(waitingTask);
      if (options.signal) {
        const { signal } = options;
        waitingTask.stopListeningForAbort = this.#onAbort(signal, () => {
          this.#waitingTasks.delete(waitingTask);
          if (this.#queue instanceof PriorityQueue) {
            this.#queue.remove(run);
          } else {
            this.#queue.remove(id);
          }
          reject(signal.reason);
          this.#processQueue();
          this.#emit("next");
        });
      }
      this.#emit("add");
      if (hasWaitingTasks) {
        this.#processQueue();
      } else {
        this.#tryToStartAnother();
      }
    });
  }
  /**
      Get or set the default timeout. A change applies to tasks added after it.
  
      @example
      ```
      const queue = new PQueue({timeout: 5000});
  
      queue.timeout = 10000;
      ```
      */
  get timeout() {
    return this.#timeout;
  }
  // Validated here, not only in `.add()`, so that an invalid value throws where it is set, instead of making every later `.add()` reject.
  set timeout(timeout) {
    validateTimeout(timeout);
    this.#timeout = timeout;
  }
  get concurrency() {
    return this.#concurrency;
  }
  set concurrency(newConcurrency) {
    validateLimit("concurrency", newConcurrency);
    this.#concurrency = newConcurrency;
    this.#processWaitingTasks();
  }
  /**
      Changes the priority of a waiting task, found by its `id`. Throws a `ReferenceError` if no waiting task has that `id`, for example because it already started. Throws a `TypeError` if `priority` is not a finite number. Tasks only wait when the queue has a `concurrency` limit, is paused, or is rate-limited.
  
      @example
      ```
      // Raise the priority to run a task earlier
      import PQueue from 'p-queue';
  
      const queue = new PQueue({concurrency: 1});
  
      queue.add(async () => '🦄', {priority: 1});
      queue.add(async () => '🦀', {priority: 0, id: '🦀'});
      queue.add(async () => '🦄', {priority: 1});
      queue.add(async () => '🦄', {priority: 1});
  
      queue.setPriority('🦀', 2);
      // '🦀' runs second
      ```
  
      @example
      ```
      // Lower the priority to run a task later
      import PQueue from 'p-queue';
  
      const queue = new PQueue({concurrency: 1});
  
      queue.add(async () => '🦄', {priority: 1});
      queue.add(async () => '🦀', {priority: 1, id: '🦀'});
      queue.add(async () => '🦄');
      queue.add(async () => '🦄', {priority: 0});
  
      queue.setPriority('🦀', -1);
      // '🦀' runs last
      ```
      */
  setPriority(id, priority) {
    if (typeof priority !== "number" || !Number.isFinite(priority)) {
      throw new TypeError(`Expected \`priority\` to be a finite number, got \`${priority}\` (${typeof priority})`);
    }
    for (const waitingTask of this.#waitingTasks) {
      if (waitingTask.id === id) {
        this.#queue.setPriority(id, priority);
        waitingTask.priority = priority;
        return;
      }
    }
    throw new ReferenceError(`No promise function with the id "${id}" exists in the queue.`);
  }
  /**
      Adds a sync or async task to the queue.
  
      Returns a promise that settles with the result of `fn` when the task completes, not when it is added. The function gets `{signal}` as its first argument. The signal is set when the task has a `signal` or a `timeout`, and aborts when either one does. Pass it on, for example to `fetch()`, to stop the work. The function runs in the async context of the `.add()` call (in Node.js 22.3 and later, Deno, and Bun), so it sees the [`AsyncLocalStorage`](https://nodejs.org/api/async_context.html#class-asynclocalstorage) values of the caller, also when it starts later.
  
      If you `await` each `.add()` call before the next, the tasks run one after the other, whatever the `concurrency`.
  
      Handle rejections of the returned promise. Otherwise, they are unhandled rejections, which can make the process exit.
      */
  add(function_, options = {}) {
    const waitingTask = {};
    const promise = this.#add(function_, options, waitingTask);
    waitingTask.promise = promise;
    if (waitingTask.isCleared) {
      promise.catch(() => void 0);
    }
    return promise;
  }
  async addAll(functions, options) {
    return Promise.all(functions.map(async (function_) => this.add(function_, options)));
  }
  /**
      Starts (or resumes) running queued tasks. Only needed if the queue is paused, with `autoStart: false` or `.pause()`.
  
      @returns `this` (the instance).
      */
  start() {
    if (!this.#isPaused) {
      return this;
    }
    this.#isPaused = false;
    this.#processWaitingTasks();
    return this;
  }
  /**
  Stops starting new tasks. Running tasks continue.
  */
  pause() {
    this.#isPaused = true;
  }
  /**
      Removes all waiting tasks. Running tasks continue.
  
      The promises returned by `.add()` for the removed tasks reject with an `AbortError`, which is a `DOMException`. The removed tasks do not run, and they do not emit the `error` event.
  
      If you ignore such a promise, its rejection is not reported as unhandled. This does not apply to a promise made from it, like the one from `queue.add(fn).then(…)` or from `.addAll()`, so handle the rejection of that promise.
  
      @example
      ```
      import PQueue from 'p-queue';
  
      const queue = new PQueue({concurrency: 1});
  
      queue.add(() => doWork());
      const promise = queue.add(() => doWork());
  
      queue.clear();
  
      try {
          await promise;
      } catch (error) {
          console.log(error.name);
          //=> 'AbortError'
      }
      ```
      */
  clear() {
    if (this.#queue.size === 0) {
      return;
    }
    this.#queue = new this.#queueClass();
    const error = new DOMException("The queue was cleared", "AbortError");
    for (const waitingTask of this.#waitingTasks) {
      waitingTask.stopListeningForAbort?.();
      waitingTask.isCleared = true;
      waitingTask.promise?.catch(() => void 0);
      waitingTask.reject(error);
    }
    this.#waitingTasks.clear();
    this.#emitEmptyAndIdle();
    this.#updateRateLimitState();
    this.#emit("next");
  }
  /**
      Returns a promise that resolves when the queue is empty. Tasks can still be running.
  
      The promise resolves once. Call `.onEmpty()` again to wait for the next time, or use the `empty` event to get every time.
      */
  async onEmpty() {
    if (this.#queue.size === 0) {
      return;
    }
    await this.#onEvent(["empty", "active"], () => this.#queue.size === 0);
  }
  /**
      Returns a promise that resolves when `queue.size < limit`.
  
      Await it before you add a task, to keep the queue from growing beyond a size. It counts only waiting tasks, not running tasks.
      */
  async onSizeLessThan(limit) {
    if (this.#queue.size < limit) {
      return;
    }
    await this.#onEvent(["next", "active"], () => this.#queue.size < limit);
  }
  /**
      Returns a promise that resolves when the queue is empty and all tasks have completed: `queue.size === 0 && queue.pending === 0`.
  
      Unlike `.onEmpty()`, it waits for running tasks to finish.
  
      The promise resolves once. Call `.onIdle()` again to wait for the next time, or use the `idle` event to get every time.
      */
  async onIdle() {
    if (this.#pending === 0 && this.#queue.size === 0) {
      return;
    }
    await this.#onEvent("idle");
  }
  /**
      Returns a promise that resolves when no tasks are running: `queue.pending === 0`.
  
      Unlike `.onIdle()`, it ignores queued tasks. Use it to let running tasks finish before you change shared state. A task that timed out, or whose `signal` aborted while it ran, no longer counts, although its function can still run.
  
      @example
      ```
      queue.pause();
      await queue.onPendingZero();
      // No tasks are running, but the queue can still have tasks
      ```
      */
  async onPendingZero() {
    if (this.#pending === 0) {
      return;
    }
    await this.#onEvent("pendingZero");
  }
  /**
      Returns a promise that resolves when the queue becomes rate-limited by `intervalCap`. If the queue is already rate-limited, it resolves immediately.
  
      Useful for backpressure, when tasks are added faster than they run.
  
      @example
      ```
      const queue = new PQueue({intervalCap: 5, interval: 1000});
  
      for (let index = 0; index < 10; index++) {
          queue.add(() => someTask());
      }
  
      await queue.onRateLimit();
      console.log('The queue is rate-limited');
      ```
      */
  async onRateLimit() {
    this.#updateRateLimitState();
    if (this.isRateLimited) {
      return;
    }
    await this.#onEvent("rateLimit");
  }
  /**
      Returns a promise that resolves when the queue is no longer rate-limited. If the queue is not rate-limited, it resolves immediately.
  
      @example
      ```
      const queue = new PQueue({intervalCap: 5, interval: 1000});
  
      for (let index = 0; index < 10; index++) {
          queue.add(() => someTask());
      }
  
      await queue.onRateLimitCleared();
      console.log('The rate limit is cleared');
      ```
      */
  async onRateLimitCleared() {
    this.#updateRateLimitState();
    if (!this.isRateLimited) {
      return;
    }
    await this.#onEvent("rateLimitCleared");
  }
  /**
      Returns a promise that rejects when a task fails: it throws, times out, or its `signal` aborts while it runs. It rejects with the error of the task, or with `null` if the error is `undefined`, like the `error` event.
  
      Use `Promise.race([queue.onError(), queue.onIdle()])` to stop at the first error, and to resolve normally when the queue becomes idle. Each call adds an `error` listener that stays until a task fails, so to get every error, for example in a loop, use the `error` event instead.
  
      Important: The promises returned by `.add()` still reject. Handle each of them (for example with `.catch(() => {})`) to prevent unhandled rejections.
  
      @example
      ```
      import PQueue from 'p-queue';
  
      const queue = new PQueue({concurrency: 2});
  
      // Do not start the remaining tasks. Pause in an `error` listener, because it runs before the next task starts, and the code after `await` runs later.
      queue.addEventListener('error', () => {
          queue.pause();
      }, {once: true});
  
      queue.add(() => fetchData(1)).catch(() => {});
      queue.add(() => fetchData(2)).catch(() => {});
      queue.add(() => fetchData(3)).catch(() => {});
  
      try {
          await Promise.race([
              queue.onError(),
              queue.onIdle()
          ]);
      } catch (error) {
          console.error('Queue failed:', error);
      }
      ```
      */
  // eslint-disable-next-line @typescript-eslint/promise-function-async
  onError() {
    return new Promise((_resolve, reject) => {
      this.addEventListener("error", (event) => {
        reject(event.detail);
      }, { once: true });
    });
  }
  /**
  The number of tasks waiting to run.
  */
  get size() {
    return this.#queue.size;
  }
  /**
      The number of waiting tasks with the given `priority`.
  
      @example
      ```
      import PQueue from 'p-queue';
  
      const queue = new PQueue();
  
      // Paused, so the tasks stay queued. Without it they all start synchronously and the queue is empty by the time `sizeBy` reads it.
      queue.pause();
  
      queue.add(async () => '🦄', {priority: 1});
      queue.add(async () => '🦄', {priority: 0});
      queue.add(async () => '🦄', {priority: 1});
  
      console.log(queue.sizeBy({priority: 1}));
      //=> 2
  
      console.log(queue.sizeBy({priority: 0}));
      //=> 1
      ```
      */
  sizeBy(options) {
    return this.#queue.filter(options).length;
  }
  /**
  The number of running tasks.
  */
  get pending() {
    return this.#pending;
  }
  /**
  Whether the queue is paused.
  */
  get isPaused() {
    return this.#isPaused;
  }
  /**
  Whether the queue is rate-limited: the number of tasks started in the current interval, plus the tasks still running from earlier intervals with `carryoverIntervalCount`, has reached `intervalCap`, and tasks are waiting.
  */
  get isRateLimited() {
    return this.#isRateLimitedNow;
  }
  /**
      Whether tasks are waiting because all concurrency slots are in use, or because the queue is rate-limited.
  
      Useful to detect backpressure and tasks that hang.
  
      @example
      ```
      import PQueue from 'p-queue';
  
      const queue = new PQueue({concurrency: 2});
  
      // Backpressure
      if (queue.isSaturated) {
          await queue.onSizeLessThan(queue.concurrency);
      }
  
      // Monitoring
      setInterval(() => {
          if (queue.isSaturated) {
              console.warn(`Queue saturated: ${queue.pending} running, ${queue.size} waiting`);
          }
      }, 60000);
      ```
      */
  get isSaturated() {
    return this.#queue.size > 0 && (this.#pending >= this.#concurrency || this.isRateLimited);
  }
  /**
      An array with the running tasks. Each task has its `id`, `priority`, `startTime`, `timeout`, and `timeoutRemaining` (the milliseconds until it times out). Without a timeout, `timeout` and `timeoutRemaining` are `undefined`.
  
      @example
      ```
      import PQueue from 'p-queue';
  
      const queue = new PQueue({concurrency: 2, timeout: 10000});
  
      queue.add(() => fetchUser(123), {id: 'user-123'});
      queue.add(() => fetchPosts(456), {id: 'posts-456', priority: 1});
  
      console.log(queue.runningTasks);
      // => [{
      //   id: 'user-123',
      //   priority: 0,
      //   startTime: 1759253001716,
      //   timeout: 10000,
      //   timeoutRemaining: 10000
      // }, {
      //   id: 'posts-456',
      //   priority: 1,
      //   startTime: 1759253001716,
      //   timeout: 10000,
      //   timeoutRemaining: 10000
      // }]
      ```
      */
  get runningTasks() {
    return Array.from(this.#runningTasks, (task) => ({
      ...task,
      timeoutRemaining: task.timeout === void 0 ? void 0 : Math.max(0, task.startTime + task.timeout - Date.now())
    }));
  }
};
var TimeoutError = class extends DOMException {
  constructor(message) {
    super(message, "TimeoutError");
  }
};

// src/files/events.ts
function emptySummary() {
  return { downloaded: 0, failed: 0, expired: 0, missing: 0, bytes: 0, problems: [] };
}

// src/files/write-file.ts
import { createHash as createHash2, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { link, lstat, open, readdir, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

// src/files/file-sink.ts
import { createHash } from "node:crypto";
import { finished } from "node:stream";
var MAX_WRITE_BYTES = 256 * 1024;
var WRITES_IN_FLIGHT = 3;
var MAX_WAITING_BYTES = 2 * 1024 * 1024;
function drainToFile(body, fh, signal) {
  return new Promise((resolve3, reject) => {
    const hash = createHash("sha256");
    let bytes = 0;
    let waiting = [];
    let waitingBytes = 0;
    let writing = 0;
    let position = 0;
    let paused = false;
    let ended = false;
    let settled = false;
    let failure = null;
    const settle = () => {
      if (writing > 0 || settled) return;
      settled = true;
      body.off("data", onData);
      signal?.removeEventListener("abort", onAbort);
      stopWatching();
      if (failure) reject(failure.err);
      else resolve3({ bytes, sha256: hash.digest("hex") });
    };
    const fail = (err) => {
      failure ??= { err };
      if (!body.destroyed) body.destroy();
      settle();
    };
    const pump = () => {
      while (!failure && waiting.length > 0 && writing < WRITES_IN_FLIGHT && (writing === 0 || ended || waitingBytes >= MAX_WRITE_BYTES)) {
        let n = 0;
        let size = 0;
        while (n < waiting.length && size < MAX_WRITE_BYTES) size += waiting[n++].length;
        const batch = n === waiting.length ? waiting : waiting.slice(0, n);
        waiting = n === waiting.length ? [] : waiting.slice(n);
        waitingBytes -= size;
        writing++;
        const at = position;
        position += size;
        writeAll(fh, batch, at).then(
          () => {
            writing--;
            if (failure) return settle();
            if (paused && waitingBytes < MAX_WAITING_BYTES) {
              paused = false;
              body.resume();
            }
            pump();
          },
          (err) => {
            writing--;
            fail(err);
          }
        );
      }
      if (ended && waiting.length === 0) settle();
    };
    const onData = (data) => {
      const chunk = typeof data === "string" ? Buffer.from(data) : data;
      if (chunk.length === 0) return;
      hash.update(chunk);
      bytes += chunk.length;
      waiting.push(chunk);
      waitingBytes += chunk.length;
      if (waitingBytes >= MAX_WAITING_BYTES && !paused) {
        paused = true;
        body.pause();
      }
      pump();
    };
    const onAbort = () => fail(signal?.reason ?? new Error("aborted"));
    const stopWatching = finished(body, (err) => {
      if (err) return fail(err);
      ended = true;
      pump();
    });
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    body.on("data", onData);
  });
}
async function writeAll(fh, bufs, at) {
  let left = bufs;
  while (left.length > 0) {
    let { bytesWritten } = await fh.writev(left, at);
    at += bytesWritten;
    if (bytesWritten === 0) throw new Error("the file took no bytes");
    const rest = [];
    for (const b of left) {
      if (bytesWritten >= b.length) bytesWritten -= b.length;
      else {
        rest.push(bytesWritten > 0 ? b.subarray(bytesWritten) : b);
        bytesWritten = 0;
      }
    }
    left = rest;
  }
}

// src/files/write-file.ts
var IncompleteBodyError = class extends ResqError {
  code = "RESQ_INCOMPLETE_BODY";
};
var ACTIVE_TEMPS = /* @__PURE__ */ new Set();
var PARTIAL = /^\..*\.(\d+)-[0-9a-f]{16}\.partial$/s;
function tempPathFor(finalPath) {
  return join(dirname(finalPath), `.${basename(finalPath)}.${process.pid}-${randomBytes(8).toString("hex")}.partial`);
}
function identityOf(st) {
  return { dev: st.dev.toString(), ino: st.ino.toString() };
}
async function writeAtomically(body, finalPath, o = {}) {
  const temp = tempPathFor(finalPath);
  ACTIVE_TEMPS.add(temp);
  try {
    const fh = await open(temp, "wx");
    let d;
    let written;
    try {
      d = await drainToFile(body, fh, o.signal);
      if (o.expectedBytes != null && d.bytes !== o.expectedBytes)
        throw new IncompleteBodyError(`received ${d.bytes} bytes, Content-Length said ${o.expectedBytes}`);
      await fh.sync();
      written = identityOf(await fh.stat({ bigint: true }));
    } finally {
      await fh.close();
    }
    const placed = o.nextPath ? await placeBeside(temp, finalPath, d, o.nextPath) : (await rename(temp, finalPath), { path: finalPath, identity: null });
    await fsyncFolder(dirname(placed.path));
    return { ...d, ...placed.identity ?? written, path: placed.path };
  } catch (err) {
    await unlink(temp).catch(() => {
    });
    throw err;
  } finally {
    ACTIVE_TEMPS.delete(temp);
  }
}
var MAX_PLACES = 1e3;
async function placeBeside(temp, first, d, nextPath) {
  let path = first;
  for (let i = 0; i < MAX_PLACES; i++) {
    try {
      await link(temp, path);
      await unlink(temp);
      return { path, identity: null };
    } catch (err) {
      const code = err.code;
      if (code !== "EEXIST") {
        if (!NO_LINKS.has(code ?? "")) throw err;
        if (!await lstat(path).catch(() => null)) {
          await rename(temp, path);
          return { path, identity: null };
        }
      }
    }
    const there = await holds(path, d);
    if (there) {
      await unlink(temp);
      return { path, identity: identityOf(there) };
    }
    path = nextPath(path);
  }
  throw new Error(`no free name beside ${first} after ${MAX_PLACES} tries`);
}
var NO_LINKS = /* @__PURE__ */ new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EMLINK"]);
async function holds(path, d) {
  const st = await lstat(path, { bigint: true }).catch(() => null);
  if (!st?.isFile() || st.size !== BigInt(d.bytes)) return null;
  return (await hashFile(path)).sha256 === d.sha256 ? st : null;
}
async function fsyncFolder(dir) {
  const fh = await open(dir, "r").catch(() => null);
  if (!fh) return;
  try {
    await fh.sync();
  } catch {
  } finally {
    await fh.close();
  }
}
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}
async function discardStalePartials(dir) {
  const removed = [];
  let names;
  try {
    names = await readdir(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const m = PARTIAL.exec(name);
    if (!m) continue;
    const path = join(dir, name);
    const pid = Number(m[1]);
    if (ACTIVE_TEMPS.has(path) || pid !== process.pid && isAlive(pid)) continue;
    await unlink(path).then(
      () => removed.push(name),
      () => {
      }
    );
  }
  return removed;
}
async function hashFile(path) {
  const hash = createHash2("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { bytes, sha256: hash.digest("hex") };
}

// src/files/failure.ts
function classifyFailure2(err, aborted) {
  if (!aborted && err instanceof IncompleteBodyError) return { kind: "retry", reason: err.message };
  const v = classifyFailure({ error: err, aborted, request: "download" });
  switch (v.action) {
    case "abort":
      return { kind: "abort" };
    case "gone":
      return { kind: "gone", reason: v.reason };
    case "retry":
    case "unknown":
      return { kind: "retry", reason: v.reason };
    case "stop":
    case "fail":
      return { kind: "fail", reason: err instanceof AuthError ? `${v.reason} (the key was refused)` : v.reason };
    case "bug": {
      const code = err?.code;
      return { kind: "fail", reason: typeof code === "string" ? `disk: ${v.reason}` : v.reason };
    }
  }
}
function expiryOf(file) {
  const at = Date.parse(file.expiresAt);
  if (!Number.isNaN(at)) return at;
  return Date.parse(file.firstSeenAt) + FILE_RETENTION_MS;
}
function goneStatus(file, now) {
  const expiry = expiryOf(file);
  const when = Number.isNaN(expiry) ? "unknown" : new Date(expiry).toISOString();
  if (now.getTime() > expiry)
    return { status: "expired", reason: `the service answered 404: the file expired at ${when} (files are kept 30 days)` };
  return {
    status: "missing",
    reason: `the service answered 404 although the file should be kept until ${when}: another account's file, or removed`
  };
}

// src/files/file-claim.ts
import { randomUUID } from "node:crypto";
import { unlink as unlink2 } from "node:fs/promises";
var FILE_LEASE_MS = 6e4;
var FileClaims = class {
  holder;
  #store;
  #leaseMs;
  #clock;
  /** `clock`: a test's, whose time then stands for the store's; else the store's own time. */
  constructor(o) {
    this.#store = o.store;
    this.#leaseMs = o.leaseMs ?? FILE_LEASE_MS;
    this.#clock = o.clock;
    this.holder = { owner: `${o.host}:${process.pid}:${randomUUID().slice(0, 8)}`, host: o.host, pid: process.pid, pidStart: processStart(process.pid) };
  }
  #now() {
    return this.#clock?.now();
  }
  /**
   * Claims the file: free, run out, or held by a process of this host that is gone (taken
   * over with the next token, only while that claim is still the file's). Null when another
   * live holder has it or it is downloaded.
   */
  async take(batchId, fileId) {
    const req = { leaseMs: this.#leaseMs, nowMs: this.#now() };
    let claim = await this.#store.claimFile(batchId, fileId, this.holder, req);
    if (!claim) {
      const held = await this.#store.fileClaimHolder(batchId, fileId);
      if (!held || held.owner === this.holder.owner || !isGoneHere(held, this.holder.host)) return null;
      claim = await this.#store.claimFile(batchId, fileId, this.holder, { ...req, from: held });
      if (!claim) return null;
    }
    const got = claim;
    const lost = new AbortController();
    const renewed = (ok) => {
      if (!ok) lost.abort(new Error(`the claim on file ${fileId} was taken over`));
    };
    const renew = setInterval(() => void this.#store.renewFileClaim(batchId, fileId, got, this.#leaseMs, this.#now()).then(renewed, () => {
    }), Math.max(1, Math.floor(this.#leaseMs / 3)));
    renew.unref();
    return {
      claim: got,
      lost: lost.signal,
      end: async () => {
        clearInterval(renew);
        await this.#store.releaseFileClaim(batchId, fileId, got).catch(() => false);
      }
    };
  }
};
async function recordDownload(store, batchId, fileId, done, claim) {
  if (await store.markFileDownloaded(batchId, fileId, done, claim)) return true;
  const copy = { host: done.host, path: done.path, bytes: done.bytes, sha256: done.sha256 };
  if (await store.recordFileCopy(batchId, fileId, copy, "keep")) return true;
  const file = await store.getFile(batchId, fileId);
  const here = (await store.fileCopies(batchId)).filter((c) => c.fileId === fileId && c.host === copy.host).map((c) => c.path);
  if (file?.host === copy.host && file.path) here.push(file.path);
  if (!here.includes(copy.path)) await unlink2(copy.path).catch(() => {
  });
  return false;
}

// src/files/path-book.ts
import { dirname as dirname2, join as join2, resolve } from "node:path";
var FOREIGN = "\0on disk";
function keyOf(path) {
  return resolve(path).normalize("NFC").toLowerCase();
}
var PathBook = class {
  #owner = /* @__PURE__ */ new Map();
  /** Starts from the paths the store already records (`{ id, path }`). */
  constructor(entries = []) {
    for (const e of entries) this.#owner.set(keyOf(e.path), e.id);
  }
  /**
   * Claims `name` in `folder` for `fileId`, or the first free `name (n).ext`. When the
   * file already owns a path in this folder (`current`), that path is kept.
   */
  claim(folder, name, fileId, current = null) {
    if (current && keyOf(dirname2(current)) === keyOf(folder) && this.#owner.get(keyOf(current)) === fileId) return resolve(current);
    const chosen = uniqueName(name, (candidate) => {
      const owner = this.#owner.get(keyOf(join2(folder, candidate)));
      return owner !== void 0 && owner !== fileId;
    });
    const path = resolve(folder, chosen);
    this.#owner.set(keyOf(path), fileId);
    return path;
  }
  /**
   * The path `fileId` claimed holds a file on disk that resq did not write for it: marks
   * that path taken for good and claims the next free `name (n).ext` in its folder.
   */
  claimNext(taken, name, fileId) {
    this.#owner.set(keyOf(taken), FOREIGN);
    return this.claim(dirname2(taken), name, fileId);
  }
  /** Gives a path back when the download that claimed it did not complete. */
  release(path, fileId) {
    if (this.#owner.get(keyOf(path)) === fileId) this.#owner.delete(keyOf(path));
  }
  /** Whether `fileId` owns `path`. */
  owns(path, fileId) {
    return this.#owner.get(keyOf(path)) === fileId;
  }
};

// src/files/out-folders.ts
import { mkdir, realpath } from "node:fs/promises";
var OutFolders = class {
  #store;
  #batchFolders = /* @__PURE__ */ new Map();
  #ready = /* @__PURE__ */ new Map();
  constructor(store) {
    this.#store = store;
  }
  /** The folder of an item's files under `out`, ready to write into. */
  async itemFolder(batch, out, itemId) {
    const folder = resolveInside(await this.#batchFolder(batch, out), safeFolderName(itemId, "item"));
    await this.#prepare(out, folder);
    return folder;
  }
  /**
   * The folder of a batch's files under `out`: `<name>-<start of id>`, unique across
   * databases; a batch with files already in the older `<out>/<name>/` keeps that folder.
   */
  #batchFolder(batch, out) {
    const key = `${batch.id}\0${out}`;
    let folder = this.#batchFolders.get(key);
    if (!folder) {
      folder = (async () => {
        const legacy = resolveInside(out, safeFolderName(batch.name, "batch"));
        const paths = await this.#store.filePaths(batch.id);
        return paths.some((p) => isInside(legacy, p.path)) ? legacy : resolveInside(out, batchFolderName(batch.name, batch.id));
      })();
      folder.catch(() => this.#batchFolders.delete(key));
      this.#batchFolders.set(key, folder);
    }
    return folder;
  }
  /** Creates a folder once, proves (symlinks resolved) it is inside `out`, and discards stale temp files. */
  #prepare(out, folder) {
    let ready = this.#ready.get(folder);
    if (!ready) {
      ready = (async () => {
        await mkdir(folder, { recursive: true });
        const [realOut, realFolder] = await Promise.all([realpath(out), realpath(folder)]);
        if (!isInside(realOut, realFolder)) throw new UnsafePathError(`refusing to write into ${JSON.stringify(folder)}: it resolves outside ${JSON.stringify(out)}`);
        await discardStalePartials(folder);
      })();
      ready.catch(() => this.#ready.delete(folder));
      this.#ready.set(folder, ready);
    }
    return ready;
  }
};

// src/files/downloader.ts
var KICK_INTERVAL_MS = 200;
var Downloader = class {
  #o;
  #queue;
  #abort = new AbortController();
  #handled = /* @__PURE__ */ new Set();
  #scans = /* @__PURE__ */ new Map();
  #scanning = /* @__PURE__ */ new Set();
  #books = /* @__PURE__ */ new Map();
  get #host() {
    return this.#o.host ?? hostname();
  }
  #folders;
  #summary = emptySummary();
  #retry;
  #clock;
  /** The claims this downloader makes on files before it fetches them. */
  #claims;
  constructor(o) {
    this.#o = o;
    this.#folders = new OutFolders(o.store);
    this.#clock = o.clock ?? systemClock;
    this.#claims = new FileClaims({ store: o.store, host: this.#host, ...o.fileLeaseMs !== void 0 ? { leaseMs: o.fileLeaseMs } : {}, ...o.clock ? { clock: o.clock } : {} });
    this.#queue = new PQueue({ concurrency: Math.max(1, o.concurrency ?? DEFAULT_DOWNLOAD_CONCURRENCY) });
    this.#retry = { attempts: 5, baseDelayMs: 500, maxDelayMs: 3e4, ...definedOnly(o.retry ?? {}) };
  }
  /**
   * Queues every pending or failed file of the batch not already queued by this downloader
   * (a file that failed here is not retried until a new downloader, e.g. `files pull`).
   * Cheap to call often: the store is scanned at most every {@link KICK_INTERVAL_MS} per
   * batch; a later call is folded into a scan scheduled for then. `also` adds statuses to
   * pick up (`files pull` adds `missing`).
   */
  kick(batch, also = []) {
    if (this.#abort.signal.aborted) return;
    let scan = this.#scans.get(batch.id);
    if (!scan) {
      scan = { batch, also: /* @__PURE__ */ new Set(), last: 0, later: null };
      this.#scans.set(batch.id, scan);
    }
    scan.batch = batch;
    for (const s of also) scan.also.add(s);
    const wait = scan.last + KICK_INTERVAL_MS - this.#clock.now();
    if (wait <= 0) this.#startScan(scan);
    else if (!scan.later) {
      const pending = scan;
      const later = new AbortController();
      scan.later = later;
      void this.#clock.sleep(wait, later.signal).then(() => {
        if (!later.signal.aborted) this.#startScan(pending);
      });
    }
  }
  /**
   * Queues this host's own copy of files another host downloaded (`files pull` on a machine
   * that lacks them): each is written under this downloader's folder and recorded as this
   * host's copy; the other host's record stays as it is, and a failure marks nothing.
   */
  copy(batch, fileIds) {
    for (const fileId of fileIds) {
      const key = `${batch.id}\0${fileId}\0copy`;
      if (this.#abort.signal.aborted || this.#handled.has(key)) continue;
      this.#handled.add(key);
      this.#queue.add(() => this.#download(batch, fileId, true)).catch((err) => this.#internal(batch, { id: fileId, itemId: "" }, err));
    }
  }
  /** Resolves when everything queued so far (scheduled scans included) has finished; the summary covers this downloader's life. */
  async drain() {
    for (const scan of this.#scans.values()) if (scan.later) this.#startScan(scan);
    while (this.#scanning.size > 0) await Promise.all(this.#scanning);
    await this.#queue.onIdle();
    return { ...this.#summary, problems: [...this.#summary.problems] };
  }
  /** Aborts downloads in flight (their rows stay as they were; their temp files are removed) and queues nothing more. */
  stop() {
    for (const scan of this.#scans.values()) scan.later?.abort();
    this.#queue.clear();
    this.#abort.abort(new Error("downloads stopped"));
  }
  /** Whether {@link stop} was called. */
  get stopped() {
    return this.#abort.signal.aborted;
  }
  /** Starts a scan; drain() waits for scans in progress. */
  #startScan(scan) {
    const p = this.#scan(scan).catch((err) => this.#scanFailed(scan.batch, err));
    this.#scanning.add(p);
    void p.finally(() => this.#scanning.delete(p));
  }
  async #scan(scan) {
    scan.later?.abort();
    scan.later = null;
    scan.last = this.#clock.now();
    if (this.#abort.signal.aborted) return;
    const { batch } = scan;
    for (const f of await this.#o.store.filesForBatch(batch.id, ["pending", "failed", ...scan.also])) {
      const key = `${batch.id}\0${f.id}`;
      if (this.#handled.has(key)) continue;
      this.#handled.add(key);
      this.#queue.add(() => this.#download(batch, f.id)).catch((err) => this.#internal(batch, f, err));
    }
  }
  /** A scan that could not read the store: reported like a file's internal failure. */
  #scanFailed(batch, err) {
    const reason = `internal: ${err instanceof Error ? err.message : String(err)}`;
    this.#summary.problems.push({ batchId: batch.id, batch: batch.name, itemId: "", fileId: "", status: "failed", reason });
  }
  /** A failure outside the download itself (the store closed or busy): counted and reported, never unhandled. */
  #internal(batch, f, err) {
    const reason = `internal: ${err instanceof Error ? err.message : String(err)}`;
    const ref = { batchId: batch.id, batch: batch.name, itemId: f.itemId, fileId: f.id };
    this.#summary.failed++;
    this.#summary.problems.push({ ...ref, status: "failed", reason });
    this.#emit({ ...ref, type: "file-problem", status: "failed", reason });
  }
  #emit(e) {
    try {
      this.#o.onEvent?.(e);
    } catch {
    }
  }
  #outDir(batch) {
    return resolve2(typeof this.#o.outDir === "function" ? this.#o.outDir(batch) : this.#o.outDir);
  }
  async #book(batchId) {
    let book = this.#books.get(batchId);
    if (!book) {
      const copies = (await this.#o.store.fileCopies(batchId)).filter((c) => c.host === this.#host);
      const paths = [...await this.#o.store.filePaths(batchId), ...copies.map((c) => ({ id: c.fileId, path: c.path }))];
      book = this.#books.get(batchId) ?? new PathBook(paths);
      this.#books.set(batchId, book);
    }
    return book;
  }
  /**
   * Downloads a file and records it; `copy`: this host's copy of a file another host downloaded.
   * A file of the batch's own is claimed in the store first, so one worker of any machine
   * fetches it; one a live holder claimed is left to it (and looked at again on a later scan),
   * one whose holder's process on this host is gone is taken over at once (file-claim.ts).
   */
  async #download(batch, fileId, copy = false) {
    if (copy) return this.#fetch(batch, fileId, null);
    const held = await this.#claims.take(batch.id, fileId);
    if (!held) {
      this.#handled.delete(`${batch.id}\0${fileId}`);
      return;
    }
    try {
      await this.#fetch(batch, fileId, held);
    } finally {
      await held.end();
    }
  }
  /** Fetches a file; `held`: the file's own download, recorded fenced by its claim and stopped when it is lost; null: this host's copy. */
  async #fetch(batch, fileId, held) {
    const claim = held?.claim ?? null;
    const copy = claim === null;
    const signal = held ? AbortSignal.any([this.#abort.signal, held.lost]) : this.#abort.signal;
    const file = await this.#o.store.getFile(batch.id, fileId);
    if (signal.aborted || !file || file.status === "downloaded" !== copy) return;
    const current = copy ? (await this.#o.store.fileCopies(batch.id)).find((c) => c.fileId === fileId && c.host === this.#host)?.path ?? null : file.path;
    const ref = { batchId: batch.id, batch: batch.name, itemId: file.itemId, fileId };
    this.#emit({ ...ref, type: "file-start", url: file.url });
    const max = Math.max(1, this.#retry.attempts);
    for (let attempt = 1; ; attempt++) {
      let claimed = null;
      try {
        const done = await this.#attempt(batch, file, current, signal, (p) => claimed = p);
        if (copy) await this.#o.store.recordFileCopy(batch.id, fileId, { host: this.#host, path: done.path, bytes: done.bytes, sha256: done.sha256 });
        else if (!await recordDownload(this.#o.store, batch.id, fileId, { ...done, host: this.#host }, claim)) return;
        this.#summary.downloaded++;
        this.#summary.bytes += done.bytes;
        this.#emit({ ...ref, type: "file-done", path: done.path, bytes: done.bytes, sha256: done.sha256 });
        return;
      } catch (err) {
        if (claimed) (await this.#book(batch.id)).release(claimed, fileId);
        const v = classifyFailure2(err, signal.aborted);
        if (v.kind === "abort") return;
        if (v.kind === "gone") return await this.#problem(ref, file, copy ? { status: "failed", reason: `${v.reason}; it is on ${file.host}` } : goneStatus(file, new Date(this.#clock.now())), claim);
        if (v.kind === "retry" && attempt < max) {
          const delayMs = this.#delay(attempt, err);
          this.#emit({ ...ref, type: "file-retry", attempt, maxAttempts: max, delayMs, reason: v.reason });
          await this.#clock.sleep(delayMs, signal);
          if (signal.aborted) return;
          continue;
        }
        const reason = v.kind === "retry" ? `${v.reason} (gave up after ${attempt} attempts)` : v.reason;
        return await this.#problem(ref, file, { status: "failed", reason }, claim);
      }
    }
  }
  /** The wait before the next attempt: the service's `Retry-After` (capped), else backoff with jitter. */
  #delay(attempt, err) {
    const hinted = err instanceof ApiError ? retryAfterMs(err.retryAfter, this.#clock.now(), this.#retry.maxDelayMs) : null;
    return hinted ?? backoffDelay(attempt, this.#retry, this.#o.random ?? Math.random);
  }
  /** A file that ended failed, expired or missing; `claim`: recorded on the file, fenced by it (null: a copy, recorded nowhere). */
  async #problem(ref, file, p, claim) {
    if (claim && !await this.#o.store.markFileStatus(ref.batchId, file.id, p.status, p.reason, claim)) return;
    this.#summary[p.status]++;
    this.#summary.problems.push({ ...ref, ...p });
    this.#emit({ ...ref, type: "file-problem", ...p });
  }
  async #attempt(batch, file, current, signal, onClaim) {
    const opened = await this.#o.client.openFile(file.url, { signal, attempts: 1 });
    opened.body.on("error", () => {
    });
    try {
      const out = this.#outDir(batch);
      const folder = await this.#folders.itemFolder(batch, out, file.itemId);
      const name = fileNameFor(file.name, file.id, opened.mediaType);
      const book = await this.#book(batch.id);
      const path = book.claim(folder, name, file.id, current);
      onClaim(path);
      const inside = (p) => {
        if (!isInside(out, p)) throw new UnsafePathError(`refusing to write ${JSON.stringify(p)}: outside ${JSON.stringify(out)}`);
        return p;
      };
      inside(path);
      const own = path === current && (current !== file.path || file.host === null || file.host === this.#host);
      const nextPath = own ? void 0 : (taken) => {
        const next = inside(book.claimNext(taken, name, file.id));
        onClaim(next);
        return next;
      };
      const written = await writeAtomically(opened.body, path, { signal, expectedBytes: opened.size, ...nextPath ? { nextPath } : {} });
      return { ...written, mediaType: opened.mediaType };
    } finally {
      if (!opened.body.destroyed) opened.body.destroy();
    }
  }
};
function definedOnly(obj) {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== void 0));
}

// src/files/pull.ts
import { hostname as hostname3 } from "node:os";

// src/files/verify.ts
import { hostname as hostname2 } from "node:os";
import { stat } from "node:fs/promises";
async function checkOnDisk(file) {
  if (!file.path) return { state: "gone", reason: "no path recorded" };
  let size;
  try {
    const st = await stat(file.path);
    if (!st.isFile()) return { state: "gone", reason: `${file.path} is not a file` };
    size = st.size;
  } catch {
    return { state: "gone", reason: `${file.path} is not on disk` };
  }
  if (file.bytes !== null && size !== file.bytes) return { state: "changed", reason: `size is ${size} bytes, recorded ${file.bytes}` };
  const d = await hashFile(file.path);
  if (file.sha256 !== null && d.sha256 !== file.sha256) return { state: "changed", reason: `sha256 is ${d.sha256}, recorded ${file.sha256}` };
  return { state: "ok" };
}
async function eachDownloaded(store, batches, visit, o = {}) {
  const host = o.host ?? hostname2();
  const queue = new PQueue({ concurrency: o.concurrency ?? 4 });
  for (const batch of batches) {
    const copies = o.copies ? new Map((await store.fileCopies(batch.id)).filter((c) => c.host === host).map((c) => [c.fileId, c])) : null;
    for (const stored of await store.filesForBatch(batch.id, ["downloaded"])) {
      const copy = stored.host !== null && stored.host !== host ? copies?.get(stored.id) : void 0;
      if (stored.host !== null && stored.host !== host && !copy) continue;
      const file = copy ? { ...stored, host, path: copy.path, bytes: copy.bytes, sha256: copy.sha256 } : stored;
      void queue.add(async () => visit(batch, file, await checkOnDisk(file)));
    }
  }
  await queue.onIdle();
}
async function verifyFiles(store, batch) {
  const batches = batch ? [batch] : await store.listBatches();
  const report = { batches: batches.map((b) => b.name), checked: 0, ok: 0, bytes: 0, problems: [] };
  const visit = (b, f, r) => {
    report.checked++;
    if (r.state === "ok") {
      report.ok++;
      report.bytes += f.bytes ?? 0;
    } else {
      report.problems.push({ batch: b.name, batchId: b.id, itemId: f.itemId, fileId: f.id, path: f.path, state: r.state, reason: r.reason });
    }
  };
  await eachDownloaded(store, batches, visit, { copies: true });
  return report;
}

// src/files/pull.ts
function defaultOutDir(batch) {
  return batch.settings.download?.out ?? "out";
}
async function pullFiles(o) {
  const { store } = o;
  const repaired = [];
  let skipped = 0;
  const marks = [];
  const host = o.host ?? hostname3();
  const fromOtherHosts = {};
  const copies = /* @__PURE__ */ new Map();
  for (const batch of o.batches) {
    const mine = new Map((await store.fileCopies(batch.id)).filter((c) => c.host === host).map((c) => [c.fileId, c]));
    const wanted = [];
    copies.set(batch, wanted);
    for (const f of await store.filesForBatch(batch.id, ["downloaded"])) {
      if (f.host === null || f.host === host) continue;
      const copy = mine.get(f.id);
      if (!copy) {
        wanted.push(f.id);
        fromOtherHosts[f.host] = (fromOtherHosts[f.host] ?? 0) + 1;
        continue;
      }
      const r = await checkOnDisk(copy);
      if (r.state === "ok") {
        skipped++;
        continue;
      }
      wanted.push(f.id);
      const reason = r.state === "gone" ? `this machine's copy is gone from disk (${r.reason})` : `this machine's copy changed on disk (${r.reason})`;
      repaired.push({ batchId: batch.id, batch: batch.name, itemId: f.itemId, fileId: f.id, path: copy.path, reason });
    }
  }
  await eachDownloaded(store, o.batches, (batch, f, r) => {
    if (r.state === "ok") return void skipped++;
    const reason = r.state === "gone" ? `gone from disk (${r.reason})` : `changed on disk (${r.reason})`;
    marks.push(store.markFileStatus(batch.id, f.id, "pending", reason));
    repaired.push({ batchId: batch.id, batch: batch.name, itemId: f.itemId, fileId: f.id, path: f.path, reason });
  }, { host });
  await Promise.all(marks);
  const outDir = o.outDir;
  const downloader = new Downloader({ ...o, outDir: (b) => outDir ?? defaultOutDir(b) });
  const onAbort = () => downloader.stop();
  o.signal?.addEventListener("abort", onAbort, { once: true });
  if (o.signal?.aborted) downloader.stop();
  try {
    for (const b of o.batches) {
      downloader.kick(b, ["missing"]);
      downloader.copy(b, copies.get(b) ?? []);
    }
    const summary = await downloader.drain();
    return { ...summary, batches: o.batches.map((b) => b.name), skipped, fromOtherHosts, repaired, notOnDisk: await notOnDisk(store, o.batches), interrupted: downloader.stopped };
  } finally {
    o.signal?.removeEventListener("abort", onAbort);
  }
}
async function notOnDisk(store, batches) {
  const out = [];
  for (const b of batches)
    for (const f of await store.filesForBatch(b.id, ["pending", "failed", "expired", "missing"]))
      out.push({ batchId: b.id, batch: b.name, itemId: f.itemId, fileId: f.id, name: f.name, status: f.status, reason: f.error });
  return out;
}

// src/files/status.ts
import { hostname as hostname4 } from "node:os";
import { dirname as dirname3 } from "node:path";
var EXPIRY_WARNING_MS = 7 * 24 * 3600 * 1e3;
function formatDuration(ms) {
  const min = Math.floor(Math.abs(ms) / 6e4);
  const d = Math.floor(min / 1440);
  const h = Math.floor(min % 1440 / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${min % 60} min`;
  return `${min} min`;
}
async function filesStatus(store, batch, now = new Date(systemClock.now()), warnWithinMs = EXPIRY_WARNING_MS, thisHost = hostname4(), place = {}) {
  const batches = batch ? [batch] : await store.listBatches();
  const out = {
    batches: batches.map((b) => b.name),
    counts: { pending: 0, downloaded: 0, failed: 0, expired: 0, missing: 0 },
    total: 0,
    bytesOnDisk: 0,
    soonestExpiry: null,
    warnings: [],
    hosts: {},
    holders: [],
    thisHost,
    notHere: 0
  };
  const holders = /* @__PURE__ */ new Map();
  const hold = (host, path, bytes) => {
    let h = holders.get(host);
    if (!h) holders.set(host, h = { host, files: 0, bytes: 0, folders: [], seen: /* @__PURE__ */ new Set() });
    h.files++;
    h.bytes += bytes ?? 0;
    const folder = path ? dirname3(dirname3(path)) : null;
    if (folder && !h.seen.has(folder)) {
      h.seen.add(folder);
      h.folders.push(folder);
    }
  };
  const warnBefore = new Date(now.getTime() + warnWithinMs).toISOString();
  for (const b of batches) {
    for (const [state, n] of Object.entries(await store.fileCounts(b.id))) {
      out.counts[state] += n;
      out.total += n;
    }
    const copies = await store.fileCopies(b.id);
    const copiedHere = new Set(copies.filter((c) => c.host === thisHost).map((c) => c.fileId));
    for (const f of await store.filesForBatch(b.id, ["downloaded"])) {
      const h = f.host ?? thisHost;
      hold(h, f.path, f.bytes);
      if (h !== thisHost && !copiedHere.has(f.id)) out.notHere++;
    }
    for (const c of copies) hold(c.host, c.path, c.bytes);
    const r = await store.expiryReport(b.id, warnBefore);
    out.bytesOnDisk += r.bytes;
    if (r.soonest && (out.soonestExpiry === null || r.soonest < out.soonestExpiry)) out.soonestExpiry = r.soonest;
    for (const f of r.expiring) {
      const msLeft = Date.parse(f.expiresAt) - now.getTime();
      const what = `${f.name ?? f.id} (item ${f.itemId}, batch ${b.name}) is not on disk (${f.status})`;
      const message = msLeft > 0 ? `${what} and expires in ${formatDuration(msLeft)} (${f.expiresAt}): run ${commandHint(["resq", "files", "pull", b.name], { db: place.db, sim: b.settings.service === "sim" })}` : `${what} and passed its expiry ${formatDuration(msLeft)} ago (${f.expiresAt}): probably gone`;
      out.warnings.push({ batch: b.name, batchId: b.id, itemId: f.itemId, fileId: f.id, name: f.name, status: f.status, expiresAt: f.expiresAt, msLeft, message });
    }
  }
  out.warnings.sort((a, b) => a.msLeft - b.msLeft);
  out.holders = [...holders.values()].map(({ seen: _seen, ...h }) => h).sort((a, b) => b.files - a.files || a.host.localeCompare(b.host));
  for (const h of out.holders) out.hosts[h.host] = h.files;
  return out;
}

export {
  emptySummary,
  IncompleteBodyError,
  writeAtomically,
  discardStalePartials,
  hashFile,
  classifyFailure2 as classifyFailure,
  expiryOf,
  goneStatus,
  PathBook,
  Downloader,
  checkOnDisk,
  verifyFiles,
  defaultOutDir,
  pullFiles,
  EXPIRY_WARNING_MS,
  formatDuration,
  filesStatus
};
//# sourceMappingURL=chunk-N7BTQGOS.mjs.map
