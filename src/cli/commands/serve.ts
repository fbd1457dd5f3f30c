import type { Argv } from 'yargs';
import { InputError } from '../../errors.js';
import type { CommandContext } from '../command-context.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';

/** Flags of `resq serve`. */
export interface ServeArgs {
  db: string;
  host: string;
  port: number;
  allowHost?: string[];
  /** A reverse proxy is in front: believe its Forwarded / X-Forwarded-Proto. */
  behindProxy?: boolean;
  /** Print a one-time invitation link and stop (no server). */
  invite?: boolean;
  /** How long the invitation may wait (with --invite). */
  for?: string;
}

/**
 * `resq serve`: the web view over a database until SIGINT/SIGTERM. The first stdout line is
 * `serving http://HOST:PORT/?code=CODE` (a one-time login link), the next `token: TOKEN` for
 * scripts (RESQ_SERVE_TOKEN fixes the token; a weak one is refused); beyond loopback, lines
 * saying the view is on the network over plain HTTP and which Host names it answers. Unexpected
 * failures, files refused and wrong tokens counted go to stderr as one line each.
 */
export async function serveHandler(a: ServeArgs, io: CliIo): Promise<number> {
  if (!Number.isInteger(a.port) || a.port < 0 || a.port > 65_535) throw new InputError(`--port: ${a.port} is not a port (0–65535; 0 picks a free one)`);
  const envToken = io.env.RESQ_SERVE_TOKEN;
  if (envToken !== undefined) {
    const { weakTokenReason } = await import('../../web/token-strength.js');
    const weak = weakTokenReason(envToken);
    if (weak !== null) throw new InputError(`RESQ_SERVE_TOKEN: ${weak}`);
  }
  const [{ openExistingStore }, { startWebServer }, { libraryActions }, { openService, choiceFor }, { chooseService }] = await Promise.all([
    import('../open-batch.js'),
    import('../../web/server.js'),
    import('../../web/actions.js'),
    import('../service.js'),
    import('../../service-choice.js'),
  ]);
  if (a.for !== undefined && !a.invite) throw new InputError('--for: only with --invite (how long the invitation may wait)');
  const allowHosts = [...(a.allowHost ?? []), ...(io.env.RESQ_SERVE_HOSTS ?? '').split(',').filter(Boolean)];
  const store = await openExistingStore(a.db);
  if (a.invite) {
    const { makeInvite } = await import('../serve-invite.js');
    try {
      const lines = await makeInvite(store, { host: a.host, port: a.port, allowHosts, behindProxy: a.behindProxy ?? false, token: envToken, ...(a.for !== undefined ? { for: a.for } : {}) });
      io.stdout.write(lines.map((l) => `${l}\n`).join(''));
    } finally {
      await store.close();
    }
    return EXIT.ok;
  }
  // Cancelling runs in flight needs the service: opened in this process, with the key from its
  // environment, only when a cancel needs it (the key never reaches the browser).
  const actions = libraryActions(store, {
    // The one rule `resq cancel` follows: RESQ_BASE_URL of this server's environment before the batch's stored URL.
    connect: (batch) => openService(choiceFor(chooseService({ envBaseUrl: io.env.RESQ_BASE_URL, batches: [batch] })), { env: io.env, dbPath: a.db }),
  });
  let server;
  try {
    server = await startWebServer({
      store,
      host: a.host,
      port: a.port,
      actions,
      ...(envToken ? { token: envToken } : {}),
      allowHosts,
      behindProxy: a.behindProxy ?? false,
      db: a.db,
      onError: (e) => io.stderr.write(`resq serve: ${e instanceof Error ? e.message : String(e)}\n`),
      log: (line) => io.stderr.write(`resq serve: ${line}\n`),
    });
  } catch (e) {
    await store.close();
    const code = (e as { code?: string }).code;
    if (code === 'EADDRINUSE') throw new InputError(`--port ${a.port}: already in use on ${a.host} (--port 0 picks a free one)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new InputError(`--host ${a.host}: not an address of this machine`);
    throw e;
  }
  // Listening for a stop before the address is printed: whoever reads it may stop us at once.
  const stopped = new Promise<void>((resolve) => {
    const off = io.onStop(() => {
      off();
      resolve();
    });
  });
  io.stdout.write(`serving ${server.url}\n`);
  io.stdout.write(`token: ${server.token} (scripts: Authorization: Bearer TOKEN; the link above works once)\n`);
  if (server.network) {
    io.stdout.write(`on the network over plain HTTP (no TLS): anyone on the way can read the pages and the token; for TLS put a reverse proxy in front (README: "Behind a reverse proxy")\n`);
    io.stdout.write(`answers the Host names ${[...server.hosts, ...allowHosts].join(', ')} (--allow-host NAME adds one)\n`);
  }
  io.stderr.write(`database: ${store.location}; stop with Ctrl-C\n`);
  // The batches' notifications go out from here too: it is what runs while a batch waits on
  // people, so reminders and stalls are told when no worker runs (the secret from this environment).
  const [{ startServeNotifier }, { sendOptionsFromEnv }, { leaseMsFromEnv }] = await Promise.all([
    import('../../notify/worker.js'),
    import('../notify-flags.js'),
    import('../lease-env.js'),
  ]);
  const notifier = startServeNotifier(store, { ...sendOptionsFromEnv(io.env, leaseMsFromEnv(io.env), a.db), onProblem: (m) => io.stderr.write(`resq serve: ${m}\n`) });
  await stopped;
  await notifier.finish(2_000);
  await server.close();
  await store.close();
  return EXIT.ok;
}

/** Registers `resq serve`. */
export function serveCommand(y: Argv, ctx: CommandContext): Argv {
  return y.command(
    'serve',
    "the team's web view of every batch in the database: live counts, items, answers to pauses, compare",
    (a) =>
      a
        .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to listen on (another than loopback opens it to the network)' })
        .option('port', { type: 'number', default: 8642, describe: 'port (0 picks a free one)' })
        .option('allow-host', { type: 'string', array: true, describe: 'another Host name to answer, e.g. the reverse proxy\'s (repeatable; also $RESQ_SERVE_HOSTS, comma-separated)' })
        .option('behind-proxy', { type: 'boolean', describe: 'a reverse proxy is in front: believe its Forwarded / X-Forwarded-Proto (Secure cookie, https Origin)' })
        .option('invite', { type: 'boolean', describe: 'print a one-time login link for a teammate and stop (any resq serve of this database takes it)' })
        .option('for', { type: 'string', describe: 'how long the --invite link may wait, e.g. 2h or 7d (default 24h, at most 30d)' }),
    async (argv) => {
      ctx.code = await serveHandler(argv as unknown as ServeArgs, ctx.io);
    },
  );
}
