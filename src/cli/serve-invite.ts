import { InputError } from '../errors.js';
import { parseDuration } from './durations.js';
import type { WebSessionStore } from '../store/index.js';
import { urlHost } from '../web/hosts.js';
import { INVITE_MAX_MS, INVITE_MS, SessionBook, sessionKey } from '../web/sessions.js';

/** What `resq serve --invite` is told: where the team reaches the server, and how long the link may wait. */
export interface InviteArgs {
  host: string;
  port: number;
  /** The first is the address a proxy in front answers by. */
  allowHosts: readonly string[];
  behindProxy: boolean;
  for?: string;
  /** RESQ_SERVE_TOKEN: the servers' fixed token, whose key the code's digest is made with. */
  token: string | undefined;
}

/** How long an invitation waits (`--for`, a day unless told, at most 30 days), or a one-line input error. */
export function inviteLifeMs(text: string | undefined): number {
  if (text === undefined) return INVITE_MS;
  const ms = parseDuration('for', text, false)!;
  if (ms > INVITE_MAX_MS) throw new InputError(`--for: ${text} is longer than an invitation may wait (30d at most)`);
  return ms;
}

/**
 * The address a teammate opens: the proxy's public name over https with `--behind-proxy` and an
 * `--allow-host`, else this server's `--host` and `--port`.
 */
export function inviteOrigin(a: Pick<InviteArgs, 'host' | 'port' | 'allowHosts' | 'behindProxy'>): string {
  if (a.behindProxy && a.allowHosts.length > 0) return `https://${a.allowHosts[0]}`;
  if (a.port === 0) throw new InputError('--invite: give the --port resq serve listens on (not 0), or --behind-proxy with the proxy\'s --allow-host');
  return `http://${urlHost(a.host)}:${a.port}`;
}

/**
 * `resq serve --invite`: writes a one-time login code to the database (its digest under the
 * token's key only) and returns the lines to print — the link, and until when it works. Any
 * `resq serve` on the database with that token lets its first visitor in, once; the token is not in it.
 */
export async function makeInvite(store: WebSessionStore, a: InviteArgs, now: () => number = Date.now): Promise<string[]> {
  const lifeMs = inviteLifeMs(a.for);
  const origin = inviteOrigin(a);
  if (a.token === undefined) throw new InputError("--invite: needs RESQ_SERVE_TOKEN, the token of the resq serve that takes the link (or use the page's Invite button)");
  const { code, expiresAt } = await new SessionBook({ store, key: sessionKey(a.token), now }).invite(lifeMs);
  return [`invite: ${origin}/?code=${code}`, `(works once, until ${expiresAt.toISOString()}, on any resq serve of this database)`];
}
