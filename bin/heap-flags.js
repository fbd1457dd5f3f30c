// V8 heap flags the resq CLI runs with (bin/resq.js re-executes itself with them; the
// benchmarks give them to any process that stands in for the CLI).
//
// A 1 MiB semi-space keeps the young generation small. Left alone, V8 grows it to
// 16-64 MiB while modules load; the 64 KiB socket buffers of a download and the rows of a
// large load then outlive cheap collections, pile up and end in full GCs. Measured with
// it: peak RSS of a 1 GiB download ~180 -> ~130 MiB with ~25% less CPU; a 1M-row load
// ~190 -> ~165 MiB at the same speed.
//
// The old generation grows by 25% of what survived a full GC, not V8's own factor (up to
// 4x when GC looks cheap). Runs in flight live for seconds to hours, so each event's
// promises and buffers outlive the small young generation and die in the old one; with
// 10,000 runs in flight (~250 MiB live) V8 let that garbage reach 400-630 MiB before
// collecting it. Measured, N=C=10,000, D=20 s, one run each at the same load: peak RSS
// 783 -> 452 MiB, CPU per run 1.82 -> 2.62 ms (more full GCs). Below ~40 MiB of heap
// V8's minimum step (8 MiB) is larger than 25%, so small batches do not notice it.
export const HEAP_FLAGS = ['--max-semi-space-size=1', '--heap-growing-percent=25'];

// Commands that keep runs in flight (issue 23) take a 16 MiB semi-space instead. With 1 MiB
// a scavenge came every ~16 ms of a busy batch and copied every run's live state each time
// (N=4,000 C=400 D=0.5 s: GC was a quarter of the main thread). Measured back to back, one
// run each: CPU 7.41 -> 5.26 s at C=400 (peak RSS 145 -> 175 MiB) and 32.1 -> 27.0 s at
// C=10,000 (412 -> 453 MiB). A download alone keeps 1 MiB: at 4 MiB its peak RSS was
// 140 -> 180 MiB, over its 150 MiB target.
export const RUNS_HEAP_FLAGS = ['--max-semi-space-size=16', '--heap-growing-percent=25'];

const RUN_COMMANDS = new Set(['run', 'resume', 'models']);

/** The heap flags for a command line (the arguments after the script): its first word decides. */
export function heapFlagsFor(args) {
  const command = args.find((a) => !a.startsWith('-'));
  return RUN_COMMANDS.has(command) ? RUNS_HEAP_FLAGS : HEAP_FLAGS;
}
