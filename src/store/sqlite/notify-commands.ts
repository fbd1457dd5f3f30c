import type { SqliteContext } from './database.js';
import type { NotifyCommandSender } from '../roles/outbox.js';
import { batchNumOf } from './statement-cache.js';

// Who runs a notify command for a batch (migration 023_notify_command_local), SQLite adapter:
// the fact only, renewed by the sender while it runs; never the command.

/** Records, renews or (leaseMs 0) ends a sender's hold; inside the store's write transaction. */
export function holdNotifyCommand(cx: SqliteContext, batchId: string, s: NotifyCommandSender, leaseMs: number, now: number): void {
  if (leaseMs <= 0) {
    cx.db.prepare(`DELETE FROM notify_commands WHERE batch_num = ${batchNumOf()} AND owner = ?`).run(batchId, s.owner);
    return;
  }
  cx.db.prepare(
    `INSERT INTO notify_commands (batch_num, owner, host, pid, until_ms) VALUES (${batchNumOf()}, ?, ?, ?, ?)
     ON CONFLICT (batch_num, owner) DO UPDATE SET until_ms = excluded.until_ms`,
  ).run(batchId, s.owner, s.host, s.pid, now + leaseMs);
}

/** The senders whose hold on the batch has not run out at `now`. */
export function notifyCommands(cx: SqliteContext, batchId: string, now: number): NotifyCommandSender[] {
  return cx.db
    .prepare(`SELECT owner, host, pid FROM notify_commands WHERE batch_num = ${batchNumOf()} AND until_ms >= ? ORDER BY host, pid, owner`)
    .all(batchId, now) as NotifyCommandSender[];
}
