import { createServer, connect, type Socket } from 'node:net';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectedTo } from './peer-sockets.js';

describe('connectedTo', () => {
  const sockets: Socket[] = [];
  let server: ReturnType<typeof createServer>;
  let port: number;
  beforeAll(async () => {
    server = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });

  it('names a process connected to the port, and not one that is not', async () => {
    expect(connectedTo(process.pid, port)).toBe(false);
    const c = connect(port, '127.0.0.1');
    await new Promise((r) => c.once('connect', r));
    expect(connectedTo(process.pid, port)).toBe(true);
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)']);
    expect(connectedTo(other.pid!, port)).toBe(false);
    other.kill();
    c.destroy();
  });
});
