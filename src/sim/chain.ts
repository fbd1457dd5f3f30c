// A chain of runs, its own module: the script reader (agent-script.ts) and the run records
// (records.ts) both use it, and a run's record holds its timeline, which reads the script.

/** What a chain of runs (first run plus one per respond) carries from run to run. */
export interface Chain {
  /** The question as POST /runs received it, directives included (see scriptOf). */
  input: string;
  /** One line per answer received, e.g. `ask_choice: chosen b`. */
  answers: readonly string[];
  /** Set by a declined confirm_scope: the next run is the last and gives the narrow answer. */
  narrow: boolean;
  /** Messages the thread held before the chain's first run. */
  earlierMessages: number;
}
