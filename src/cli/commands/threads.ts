import type { Argv } from 'yargs';
import type { CommandContext } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import { line, type CliIo } from '../io.js';
import type { Service, ServiceChoice } from '../service.js';

/** Flags every threads command has. */
export type ThreadsArgs = ServiceChoice & { json: boolean; db: string };

function serviceFlags<T>(a: Argv<T>) {
  return a
    .option('sim', { type: 'boolean', describe: 'use the built-in simulator' })
    .option('base-url', { type: 'string', describe: 'service base URL ending in /api/v1 (default $RESQ_BASE_URL)' });
}

async function withService(a: ThreadsArgs, io: CliIo, fn: (s: Service) => Promise<void>): Promise<number> {
  // Loaded when a threads command runs (see cli.ts).
  const [{ openService, choiceFor }, { chooseService }] = await Promise.all([import('../service.js'), import('../../service-choice.js')]);
  const service = await openService(choiceFor(chooseService({ sim: a.sim ?? false, baseUrl: a.baseUrl, envBaseUrl: io.env.RESQ_BASE_URL })), { env: io.env, dbPath: a.db });
  try {
    await fn(service);
    return EXIT.ok;
  } finally {
    await service.close();
  }
}

/** `resq threads list`: the newest fifty threads. */
export function threadsListHandler(a: ThreadsArgs, io: CliIo): Promise<number> {
  return withService(a, io, async (s) => {
    const list = await s.client.listThreads();
    if (a.json) return line(io.stdout, JSON.stringify(list));
    if (list.data.length === 0) return line(io.stdout, 'no threads');
    for (const th of list.data) line(io.stdout, `${th.id}  ${th.updated_at}  ${String(th.message_count).padStart(3)} msgs  ${th.title}`);
  });
}

/** `resq threads show ID`: a thread with its messages. */
export function threadsShowHandler(a: ThreadsArgs & { id: string }, io: CliIo): Promise<number> {
  return withService(a, io, async (s) => {
    const th = await s.client.getThread(a.id);
    if (a.json) return line(io.stdout, JSON.stringify(th));
    io.stdout.write(`${th.title}\n${th.id} · updated ${th.updated_at} · latest run ${th.latest_run_id ?? '-'}\n\n`);
    for (const m of th.messages ?? []) {
      const files = (m.tool_results ?? []).flatMap((r) => (r.files ?? []).map((f) => f.name ?? f.id));
      io.stdout.write(`[${m.role}] ${m.text ?? ''}\n${files.length ? `  files: ${files.join(', ')}\n` : ''}\n`);
    }
  });
}

/** `resq threads delete ID`. */
export function threadsDeleteHandler(a: ThreadsArgs & { id: string }, io: CliIo): Promise<number> {
  return withService(a, io, async (s) => {
    const r = await s.client.deleteThread(a.id);
    line(io.stdout, a.json ? JSON.stringify(r) : `deleted thread ${a.id}`);
  });
}

/** Registers `resq threads list | show ID | delete ID`. */
export function threadsCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command('threads', "the account's threads (conversations)", (t) =>
    t
      .command('list', 'the newest fifty threads', (a) => serviceFlags(a), async (argv) => {
        ctx.code = await threadsListHandler(argv as unknown as ThreadsArgs, ctx.io);
      })
      .command(
        'show <id>',
        'a thread with its messages',
        (a) => serviceFlags(a).positional('id', { type: 'string', demandOption: true, describe: 'thread id (resq threads list shows them)' }),
        async (argv) => {
          ctx.code = await threadsShowHandler(argv as unknown as ThreadsArgs & { id: string }, ctx.io);
        },
      )
      .command(
        'delete <id>',
        'delete a thread and its transcript (its files stay until they expire)',
        (a) => serviceFlags(a).positional('id', { type: 'string', demandOption: true, describe: 'thread id (resq threads list shows them)' }),
        async (argv) => {
          ctx.code = await threadsDeleteHandler(argv as unknown as ThreadsArgs & { id: string }, ctx.io);
        },
      )
      .demandCommand(1, 'name a threads command: list, show ID or delete ID'),
  );
}
