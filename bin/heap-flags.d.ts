/** V8 heap flags the resq CLI runs with (see heap-flags.js). */
export declare const HEAP_FLAGS: readonly string[];
/** The heap flags of commands that keep runs in flight (see heap-flags.js). */
export declare const RUNS_HEAP_FLAGS: readonly string[];
/** The heap flags for a command line (the arguments after the script). */
export declare function heapFlagsFor(args: readonly string[]): readonly string[];
