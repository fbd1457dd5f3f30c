import type { NotifyCommandSender } from '../roles/outbox.js';
import type { Queryable } from './pool.js';
import { all, BATCH_NUM, dbNow } from './sql.js';

// Who runs a notify command for a batch (migration 023_notify_command_local), PostgreSQL
// adapter: the fact only, renewed by the sender while it runs; never the command. Times are
// the database's clock unless a test gives its own (`now`).

/** Records, renews or (leaseMs 0) ends a sender's hold (one statement). */
export async function holdNotifyCommand(c: Queryable, batchId: string, s: NotifyCommandSender, leaseMs: number, now: number | null): Promise<void> {
  if (leaseMs <= 0) {
    await c.query(`DELETE FROM notify_commands WHERE batch_num = ${BATCH_NUM('$1')} AND owner = $2`, [batchId, s.owner]);
    return;
  }
  await c.query(
    `INSERT INTO notify_commands (batch_num, owner, host, pid, until_ms) VALUES (${BATCH_NUM('$1')}, $2, $3, $4, ${dbNow('$5')} + $6)
     ON CONFLICT (batch_num, owner) DO UPDATE SET until_ms = excluded.until_ms`,
    [batchId, s.owner, s.host, s.pid, now, leaseMs],
  );
}

/** The senders whose hold on the batch has not run out. */
export async function notifyCommands(c: Queryable, batchId: string, now: number | null): Promise<NotifyCommandSender[]> {
  return all<NotifyCommandSender>(
    c,
    `SELECT owner, host, pid FROM notify_commands WHERE batch_num = ${BATCH_NUM('$1')} AND until_ms >= ${dbNow('$2')} ORDER BY host, pid, owner`,
    [batchId, now],
  );
}
