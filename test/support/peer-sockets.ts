import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/**
 * Whether process `pid` holds a TCP connection to loopback port `port` (Linux /proc: the
 * socket inodes of its open files, matched against /proc/net/tcp{,6}'s remote ports). Lets a
 * test name which processes are at a server, not just how many connections it has: one process
 * may open several.
 */
export function connectedTo(pid: number, port: number): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false; // gone
  }
  const inodes = new Set<string>();
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // f[2]: remote address:port, f[3]: state (01 established), f[9]: inode
      if (f.length > 9 && f[2]!.endsWith(`:${hex}`) && f[3] === '01' && inodes.has(f[9]!)) return true;
    }
  }
  return false;
}
