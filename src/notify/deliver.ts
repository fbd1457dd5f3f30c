import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { NotifySettings } from '../store/notify-settings.js';

// Sending one event to one receiver: an HTTP POST, or a shell command with the JSON on stdin.
// Each with a timeout; any failure is a line naming the receiver by its host (a webhook's path is
// often its secret), never the body, never the receiver's answer.

/** A receiver of a batch's events. */
export type Receiver = { kind: 'url'; url: string } | { kind: 'command'; command: string };

/**
 * The receivers of a batch's event sent by this process, in order: the batch's stored URLs,
 * then `command`, the notify command this process was given on its own command line (never
 * one read from the store).
 */
export function receiversOf(n: NotifySettings, command: string | null = null): Receiver[] {
  return [...n.urls.map((url): Receiver => ({ kind: 'url', url })), ...(command ? [{ kind: 'command', command } as Receiver] : [])];
}

/**
 * A receiver's digest: how an event remembers who took it already (no URL stored twice). Every
 * notify command is one receiver ("the command"): an event one sender's command took is not
 * run again by another's, and the digest says nothing of the command's text.
 */
export function receiverTag(r: Receiver): string {
  return createHash('sha256').update(r.kind === 'url' ? `url ${r.url}` : 'cmd').digest('hex').slice(0, 16);
}

/** A receiver said safely: its host, or "the command". */
export function receiverName(r: Receiver): string {
  return r.kind === 'url' ? new URL(r.url).host : 'the notify command';
}

/** Sends; resolves when the receiver took it, throws an Error with a one-line message otherwise (the receiver not named: the caller names it). */
export async function deliver(r: Receiver, body: string, headers: Record<string, string>, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  return r.kind === 'url' ? post(r.url, body, headers, timeoutMs, signal) : runCommand(r.command, body, headers, timeoutMs, signal);
}

async function post(url: string, body: string, headers: Record<string, string>, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const timeout = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'resq-notify', ...headers },
      redirect: 'error',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (e) {
    if (timeout.aborted) throw new Error(`no answer in ${Math.round(timeoutMs / 1000)} s`);
    if (signal?.aborted) throw new Error('stopped before an answer');
    const code = (e as { cause?: { code?: string } }).cause?.code;
    throw new Error(code ?? 'request failed');
  }
  // The answer's body is never read into a message (untrusted); drained so the socket is reused.
  await res.arrayBuffer().catch(() => undefined);
  if (res.status < 200 || res.status > 299) throw new Error(`HTTP ${res.status}`);
}

/** What a notify command's environment never carries (PGPASSWORD: the database's password as node-postgres also reads it). */
export const SECRET_ENV = ['RESQ_API_KEY', 'RESQ_NOTIFY_SECRET', 'RESQ_SERVE_TOKEN', 'RESQ_DB', 'PGPASSWORD'] as const;

function runCommand(command: string, body: string, headers: Record<string, string>, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, RESQ_EVENT_ID: headers['X-Resq-Event-Id'] ?? '', RESQ_EVENT_TYPE: headers['X-Resq-Event-Type'] ?? '' };
    // The command gets the event, never a secret: the service's key, the signing secret, the
    // web view's token, nor the database's address (a postgres:// URL carries its password) or password.
    for (const name of SECRET_ENV) delete env[name];
    // Its output is never shown raw: dropped.
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'ignore', 'ignore'], env, detached: true });
    let settled = false;
    const end = (err: Error | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      if (err) reject(err);
      else resolve();
    };
    const kill = (): void => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    };
    const stop = (): void => {
      kill();
      end(new Error('stopped'));
    };
    const timer = setTimeout(() => {
      kill();
      end(new Error(`no end in ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    signal?.addEventListener('abort', stop, { once: true });
    child.on('error', (e) => end(new Error((e as NodeJS.ErrnoException).code ?? 'failed to start')));
    child.on('exit', (code, sig) => end(code === 0 ? null : new Error(`exited with ${code ?? sig}`)));
    child.stdin.on('error', () => {});
    child.stdin.end(body);
  });
}
