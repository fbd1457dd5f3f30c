import type { Argv } from 'yargs';
import { openService, type ServiceChoice } from '../service.js';

function serviceFlags<T>(a: Argv<T>) {
  return a
    .option('sim', { type: 'boolean', describe: 'use the built-in simulator' })
    .option('base-url', { type: 'string', describe: 'service base URL ending in /api/v1 (default $RESQ_BASE_URL)' });
}

async function withService<R>(argv: ServiceChoice, fn: (s: Awaited<ReturnType<typeof openService>>) => Promise<R>): Promise<R> {
  const service = await openService({ sim: argv.sim ?? false, baseUrl: argv.baseUrl ?? null });
  try {
    return await fn(service);
  } finally {
    await service.close();
  }
}

/** Registers `resq threads list | show ID | delete ID`. */
export function threadsCommand(y: Argv): Argv {
  return y.command('threads', "the account's threads (conversations)", (t) =>
    t
      .command(
        'list',
        'the newest fifty threads',
        (a) => serviceFlags(a),
        async (argv) => {
          const a = argv as unknown as ServiceChoice & { json: boolean };
          await withService(a, async (s) => {
            const list = await s.client.listThreads();
            if (a.json) return void process.stdout.write(`${JSON.stringify(list)}\n`);
            if (list.data.length === 0) return void process.stdout.write('no threads\n');
            for (const th of list.data)
              process.stdout.write(`${th.id}  ${th.updated_at}  ${String(th.message_count).padStart(3)} msgs  ${th.title}\n`);
          });
        },
      )
      .command(
        'show <id>',
        'a thread with its messages',
        (a) => serviceFlags(a).positional('id', { type: 'string', demandOption: true }),
        async (argv) => {
          const a = argv as unknown as ServiceChoice & { id: string; json: boolean };
          await withService(a, async (s) => {
            const th = await s.client.getThread(a.id);
            if (a.json) return void process.stdout.write(`${JSON.stringify(th)}\n`);
            process.stdout.write(`${th.title}\n${th.id} · updated ${th.updated_at} · latest run ${th.latest_run_id ?? '-'}\n\n`);
            for (const m of th.messages ?? []) {
              const files = (m.tool_results ?? []).flatMap((r) => (r.files ?? []).map((f) => f.name ?? f.id));
              process.stdout.write(`[${m.role}] ${m.text ?? ''}\n${files.length ? `  files: ${files.join(', ')}\n` : ''}\n`);
            }
          });
        },
      )
      .command(
        'delete <id>',
        'delete a thread and its transcript (its files stay until they expire)',
        (a) => serviceFlags(a).positional('id', { type: 'string', demandOption: true }),
        async (argv) => {
          const a = argv as unknown as ServiceChoice & { id: string; json: boolean };
          await withService(a, async (s) => {
            const r = await s.client.deleteThread(a.id);
            process.stdout.write(a.json ? `${JSON.stringify(r)}\n` : `deleted thread ${a.id}\n`);
          });
        },
      )
      .demandCommand(1, 'name a threads command: list, show ID or delete ID'),
  );
}
