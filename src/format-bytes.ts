// The one byte formatter of every front end (CLI, notebook): the same file shows one size.

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/**
 * Bytes for a person, in powers of 1024 as `du -h` and the simulator's `@size` count, with
 * the IEC unit names that say so: `999 B`, `1.5 KiB`, `46 KiB`, `200 MiB`. One decimal below
 * 10, whole numbers above. `null` (a size the service did not give) is `size unknown`.
 */
export function formatBytes(n: number | null): string {
  if (n === null) return 'size unknown';
  if (n < 1024) return `${n} B`;
  let v = n;
  let u = -1;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  // 1023.96 KiB rounds to "1024 KiB": say 1.0 MiB instead.
  if (Math.round(v) >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${UNITS[u]}`;
}
