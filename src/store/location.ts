// Where a store is: a SQLite file or a PostgreSQL URL. Its own module so the adapters can mask
// a location without importing open.ts, which loads them.

import { isPostgresUrl } from '../text/postgres-url.js';

export { isPostgresUrl };

/** A location safe to print: the password of a URL is masked. */
export function maskLocation(location: string): string {
  if (!isPostgresUrl(location)) return location;
  try {
    const u = new URL(location);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return location.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}
