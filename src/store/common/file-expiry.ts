/** The service deletes files thirty days after they are made. */
export const FILE_RETENTION_MS = 30 * 24 * 3600 * 1000;

/**
 * When a file the store records first now expires: thirty days after its run was created
 * when the service said when, else after it was first seen. Both adapters record with it.
 */
export function fileExpiry(seenAt: Date, runCreatedAt: Date | null): Date {
  const base = runCreatedAt && !Number.isNaN(runCreatedAt.getTime()) ? runCreatedAt : seenAt;
  return new Date(base.getTime() + FILE_RETENTION_MS);
}
