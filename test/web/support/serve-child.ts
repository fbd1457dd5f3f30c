import type { ChildProcess } from 'node:child_process';
import { collect, spawnCli, type CliResult } from '../../support/cli.js';

/** A real `resq serve` child process, once it has printed its address. */
export interface ServeChild {
  child: ChildProcess;
  /** The first line's address, with its one-time login code. */
  url: string;
  origin: string;
  token: string;
  /** SIGTERM, then what it said. */
  stop(): Promise<CliResult>;
}

/** Starts `resq serve ARGS` (the CLI's own bin) with `env`; resolves once its lines `serving URL` and `token: TOKEN` are read. */
export async function serveChild(args: string[], env: Record<string, string | undefined> = {}): Promise<ServeChild> {
  const child = spawnCli(['serve', ...args], env);
  const done = collect(child);
  const lines = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer | string) => {
      out += d.toString();
      const lines = out.split('\n');
      if (lines.length > 2) resolve(`${lines[0]}\n${lines[1]}`);
    });
    void done.then((r) => reject(new Error(`resq serve exited ${r.code} before serving:\n${r.stderr}`)));
  });
  const m = /^serving ((http:\/\/[^/]+)\/\?code=\S+)\ntoken: (\S+) /.exec(lines);
  if (!m) throw new Error(`resq serve's first lines are not its address and token: ${lines}`);
  return {
    child,
    url: m[1]!,
    origin: m[2]!,
    token: m[3]!,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return done;
    },
  };
}
