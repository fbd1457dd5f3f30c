/** Lease length: RESQ_LEASE_MS (tests shorten it), else the runner's default (undefined). */
export function leaseMsFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const v = Number(env.RESQ_LEASE_MS);
  return Number.isInteger(v) && v >= 100 ? v : undefined;
}
