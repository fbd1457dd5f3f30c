/** V8 heap flags the resq CLI runs with (see heap-flags.js). */
export declare const HEAP_FLAGS: readonly string[];
