// The one test of whether a `--db` value (or RESQ_DB) names a PostgreSQL database rather than a
// SQLite file. A leaf: the CLI, the hints, the simulator's front end and the store all ask it.

/** Whether `location` is a `postgres://` or `postgresql://` URL (any case). */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}
