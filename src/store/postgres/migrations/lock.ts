/** Key of the advisory lock that serialises migrations (migrations.ts): workers starting together migrate once. */
export const MIGRATION_LOCK = 7_431_902_118;
