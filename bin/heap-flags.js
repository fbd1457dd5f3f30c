// V8 heap flags the resq CLI runs with (bin/resq.js re-executes itself with them; the
// benchmarks give them to any process that stands in for the CLI).
//
// A 1 MiB semi-space keeps the young generation small. Left alone, V8 grows it to
// 16-64 MiB while modules load; the 64 KiB socket buffers of a download and the rows of a
// large load then outlive cheap collections, pile up and end in full GCs. Measured with
// it: peak RSS of a 1 GiB download ~180 -> ~130 MiB with ~25% less CPU; a 1M-row load
// ~190 -> ~165 MiB at the same speed.
export const HEAP_FLAGS = ['--max-semi-space-size=1'];
