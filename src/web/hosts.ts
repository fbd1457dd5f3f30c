import { hostname, networkInterfaces } from 'node:os';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const ANY = new Set(['0.0.0.0', '::', '[::]']);

/** Whether a host the server binds to is a loopback address. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host);
}

/** A host as it appears in a URL or a Host header (IPv6 in brackets). */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** This machine's names on the network: its host name and every interface address (IPv6 link-local scopes dropped). */
export function machineNames(): string[] {
  const names = new Set<string>([hostname().toLowerCase()]);
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (!a.internal) names.add(urlHost(a.address.replace(/%.*$/, '')).toLowerCase());
  return [...names];
}

/**
 * The Host names (with the port) a server bound to `bound` answers by itself: every loopback
 * name on loopback (and on a wildcard, 0.0.0.0 or ::); beyond loopback also the machine's own
 * host name and interface addresses — what the network can reach it by.
 */
export function ownHosts(bound: string, port: number, machine: readonly string[] = machineNames()): string[] {
  const hosts = new Set<string>([`${urlHost(bound)}:${port}`.toLowerCase()]);
  if (isLoopback(bound) || ANY.has(bound)) for (const h of ['127.0.0.1', 'localhost', '[::1]']) hosts.add(`${h}:${port}`);
  if (!isLoopback(bound)) for (const m of machine) hosts.add(`${m}:${port}`);
  return [...hosts];
}

/**
 * The Host headers the server answers (DNS rebinding guard): {@link ownHosts}, and the names
 * given with `--allow-host` (a name without a port: any port, for a reverse proxy that
 * forwards its own Host).
 */
export function allowedHosts(bound: string, port: number, extra: readonly string[], machine?: readonly string[]): (host: string | undefined) => boolean {
  const exact = new Set<string>(ownHosts(bound, port, machine));
  const anyPort = new Set<string>();
  for (const e of extra) {
    const h = e.trim().toLowerCase();
    if (!h) continue;
    if (/:\d+$/.test(h)) exact.add(h);
    else anyPort.add(h);
  }
  return (host) => {
    if (!host) return false;
    const h = host.toLowerCase();
    if (exact.has(h)) return true;
    return anyPort.has(h.replace(/:\d+$/, ''));
  };
}
