import type { SimClock } from './clock.js';
import type { CounterBook } from './counters.js';
import type { SimJournal } from './journal.js';
import type { FileRecord, ModelRunRecord } from './records.js';
import { pageUrl, type MakeFile, type ModelDef, type ModelResult } from './model-catalog.js';
import { newFileId, newModelRunId, type SimStore } from './store.js';
import type { TimerSet } from './timers.js';

/** What model jobs need from the simulator. */
export interface ModelJobsDeps {
  store: SimStore;
  counters: CounterBook;
  clock: SimClock;
  timers: TimerSet;
  baseUrl: () => string;
  origin: () => string;
  modelJobMs: number;
  /** Where model runs are written as they are admitted and done (with a state file). */
  journal?: SimJournal | null;
}

/** Creates model runs: inline for fast models, as timed background jobs otherwise. */
export class ModelJobs {
  readonly #d: ModelJobsDeps;

  constructor(deps: ModelJobsDeps) {
    this.#d = deps;
  }

  /**
   * Starts a model run. `background` makes it a job of modelJobMs; `pollable` gives it a
   * poll_url (the answer is a 202). `key` is the request's idempotency key (counted);
   * `remember`, the idempotency entry to find the run under.
   */
  start(
    account: string,
    def: ModelDef,
    inputs: Record<string, unknown>,
    background: boolean,
    pollable: boolean,
    key: string | undefined,
    remember?: string,
  ): ModelRunRecord {
    const id = newModelRunId();
    let settle = (): void => {};
    const run: ModelRunRecord = {
      id,
      account,
      modelId: def.id,
      createdAt: this.#d.clock.now(),
      status: 'running',
      outputs: null,
      error: null,
      credits: null,
      pollUrl: pollable ? `${this.#d.baseUrl()}/model-runs/${id}` : null,
      pageUrl: pageUrl(def, this.#d.origin()),
      inputs,
      done: new Promise<void>((resolve) => {
        settle = resolve;
      }),
    };
    this.#d.store.modelRuns.set(id, run);
    if (remember !== undefined) this.#d.store.idempotency.set(remember, id);
    this.#d.counters.modelRun(key);
    const finish = (): FileRecord[] => {
      const made: FileRecord[] = [];
      apply(run, def.run(inputs, this.#fileMaker(account, made)));
      this.#d.store.touch();
      settle();
      return made;
    };
    this.#d.store.touch();
    if (background) {
      this.#d.journal?.modelRun(run, [], remember ?? null);
      this.#d.timers.timeout(() => {
        const made = finish();
        this.#d.journal?.modelRun(run, made, null);
      }, this.#d.modelJobMs);
    } else {
      const made = finish();
      this.#d.journal?.modelRun(run, made, remember ?? null);
    }
    return run;
  }

  /** Finishes a job restored from a snapshot while it was running (after a whole job's time). */
  resume(run: ModelRunRecord, def: ModelDef | undefined): void {
    if (run.status !== 'running') return;
    let settle = (): void => {};
    run.done = new Promise<void>((resolve) => {
      settle = resolve;
    });
    this.#d.timers.timeout(() => {
      const made: FileRecord[] = [];
      if (def) apply(run, def.run(run.inputs, this.#fileMaker(run.account, made)));
      else apply(run, { status: 'failed', outputs: null, error: 'model no longer known', credits: 0 });
      this.#d.journal?.modelRun(run, made, null);
      this.#d.store.touch();
      settle();
    }, this.#d.modelJobMs);
  }

  /** Makes the files of a model run, each also pushed to `made`. */
  #fileMaker(account: string, made: FileRecord[]): MakeFile {
    return (name, residues) => {
      const rec: FileRecord = { id: newFileId(), account, kind: 'pdb', name, sizeBytes: undefined, residues, createdAt: this.#d.clock.now() };
      this.#d.store.files.set(rec.id, rec);
      made.push(rec);
      return { id: rec.id, role: 'structure', url: `${this.#d.baseUrl()}/files/${rec.id}`, name };
    };
  }
}

function apply(run: ModelRunRecord, r: ModelResult): void {
  run.status = r.status;
  run.outputs = r.outputs;
  run.error = r.error;
  run.credits = r.credits;
}
