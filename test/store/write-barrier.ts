import pg from 'pg';
import type { Store } from '../../src/store/port.js';

/**
 * A barrier for store writes said to run at once: the writes are held at one point until
 * `n` of them wait there together, then let go. A test run one write after the other never
 * reaches it. PostgreSQL's: a table locked from another connection (`flights` by default: every
 * write of an item in flight changes its flight; `files` for claims on files), the writers counted in `pg_locks`.
 */
export interface WriteBarrier {
  /** Holds the store's writes from now on. */
  hold(store: Store): Promise<HeldWrites>;
}

/** Writes held by a {@link WriteBarrier}. */
export interface HeldWrites {
  /** Whether `n` writes (on as many connections) came to wait together (bounded, 10 s). */
  reached(n: number): Promise<boolean>;
  /** Lets them go. */
  release(): Promise<void>;
}

/** The barrier on a PostgreSQL store; `urlOf` gives the URL each store of the test was opened on; `table`: the table the writes wait on. */
export function pgWriteBarrier(urlOf: (store: Store) => string, table: 'flights' | 'files' = 'flights'): WriteBarrier {
  return {
    async hold(store) {
      const admin = new pg.Client({ connectionString: urlOf(store) });
      await admin.connect();
      await admin.query('BEGIN');
      await admin.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
      const waiting = async (): Promise<number> =>
        (await admin.query<{ n: number }>(`SELECT count(DISTINCT l.pid)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = $1 AND NOT l.granted`, [table])).rows[0]!.n;
      return {
        async reached(n) {
          for (let i = 0; i < 200; i++) {
            if ((await waiting()) >= n) return true;
            await new Promise((r) => setTimeout(r, 50));
          }
          return false;
        },
        async release() {
          await admin.query('COMMIT');
          await admin.end();
        },
      };
    },
  };
}
