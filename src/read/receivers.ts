import type { NotifySettings } from '../store/notify-settings.js';

/**
 * The receivers in words, never their URLs' paths: `2 URLs (hooks.slack.com, 127.0.0.1:8080)
 * and a command on pid 12 on build-1, json`. `commands`: the live senders with a notify command
 * of their own (the store knows only that they have one).
 */
export function describeReceivers(n: NotifySettings | undefined, commands: readonly { host: string; pid: number }[] = []): string {
  if (!n) return 'none';
  const hosts = n.urls.map((u) => new URL(u).host);
  const where = commands.map((c) => `pid ${c.pid} on ${c.host}`).join(', ');
  const parts = [hosts.length ? `${hosts.length} URL${hosts.length === 1 ? '' : 's'} (${hosts.join(', ')})` : '', where ? `a command on ${where}` : ''].filter(Boolean);
  return `${parts.length ? parts.join(' and ') : 'no URL'}, ${n.format}`;
}
