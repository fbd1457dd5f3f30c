import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

// The proxy with real sockets: an echo server behind it, clients in front.
describe('tcp proxy', () => {
  let echo: Server;
  let echoPort: number;
  const serverSide = new Set<Socket>();
  const serverErrors: string[] = [];
  let proxy: TcpProxy;
  const clients: Socket[] = [];

  beforeEach(async () => {
    serverErrors.length = 0;
    echo = createServer((s) => {
      serverSide.add(s);
      s.on('error', (e: NodeJS.ErrnoException) => serverErrors.push(e.code ?? e.message));
      s.on('close', () => serverSide.delete(s));
      s.on('data', (d) => s.write(d));
      s.on('end', () => s.end());
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', () => r()));
    echoPort = (echo.address() as { port: number }).port;
    proxy = await startTcpProxy(echoPort);
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.destroy();
    await proxy.close();
    for (const s of serverSide) s.destroy();
    await new Promise<void>((r) => echo.close(() => r()));
  });

  /** A client through the proxy, collecting what comes back and how it ended. */
  async function client(): Promise<{ sock: Socket; got: () => string; ended: Promise<{ error: string | null }> }> {
    const sock = connect({ port: proxy.port, host: '127.0.0.1' });
    clients.push(sock);
    let got = '';
    let error: string | null = null;
    sock.setEncoding('utf8').on('data', (d: string) => (got += d));
    sock.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    const ended = new Promise<{ error: string | null }>((r) => sock.on('close', () => r({ error })));
    await new Promise<void>((r, j) => {
      sock.once('connect', () => r());
      sock.once('error', j);
    });
    return { sock, got: () => got, ended };
  }

  const until = async (cond: () => boolean): Promise<void> => {
    for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(cond()).toBe(true);
  };

  it('pass: bytes go through both ways and are counted', async () => {
    const c = await client();
    c.sock.write('hello');
    await until(() => c.got() === 'hello');
    await proxy.until((k) => k.bytesUp === 5 && k.bytesDown === 5);
    expect(proxy.counters()).toMatchObject({ accepted: 1, open: 1, refused: 0, reset: 0 });
  });

  it('blackhole: sockets stay open, every byte is held both ways, and a heal flushes them in order', async () => {
    const c = await client();
    c.sock.write('before;');
    await until(() => c.got() === 'before;');
    proxy.blackhole();
    c.sock.write('one;');
    c.sock.write('two;');
    await proxy.until((k) => k.heldBytes === 8);
    // The echo server got nothing: nothing came back, and the socket is still open.
    await new Promise((r) => setTimeout(r, 150));
    expect(c.got()).toBe('before;');
    expect(c.sock.destroyed).toBe(false);
    // A new connection is accepted while black-holed, its bytes held too.
    const d = await client();
    d.sock.write('late');
    await proxy.until((k) => k.heldBytes === 12 && k.accepted === 2);
    // Bytes from the server side are held as well.
    for (const s of serverSide) s.write('push;');
    await proxy.until((k) => k.heldBytes >= 12 + 5);
    expect(c.got()).toBe('before;');
    proxy.heal();
    await until(() => c.got() === 'before;push;one;two;' || c.got() === 'before;one;two;push;');
    await until(() => d.got().endsWith('late'));
    expect(proxy.counters()).toMatchObject({ heldBytes: 0, open: 2, reset: 0 });
  });

  it('blackhole healed with drop: the held bytes are thrown away and the connections that lost some are reset', async () => {
    const c = await client();
    const idle = await client();
    proxy.blackhole();
    c.sock.write('lost');
    await proxy.until((k) => k.heldBytes === 4);
    proxy.heal({ drop: true });
    const end = await c.ended;
    expect(end.error).toMatch(/ECONNRESET|EPIPE/);
    expect(c.got()).toBe('');
    // A connection with nothing held goes on.
    idle.sock.write('still');
    await until(() => idle.got() === 'still');
    expect(proxy.counters()).toMatchObject({ droppedBytes: 4, reset: 1, heldBytes: 0 });
  });

  it('deaf: requests reach the server, its answers are held until a heal', async () => {
    const c = await client();
    let heard = '';
    proxy.deaf();
    c.sock.write('ask');
    // The echo server got the request (it answered), and the answer is held.
    await proxy.until((k) => k.bytesUp === 3 && k.heldBytes === 3);
    for (const s of serverSide) s.on('data', (d: Buffer) => (heard += d.toString()));
    expect(c.got()).toBe('');
    proxy.heal();
    await until(() => c.got() === 'ask');
    expect(heard).toBe('');
    expect(proxy.counters()).toMatchObject({ heldBytes: 0, bytesDown: 3, reset: 0 });
  });

  it('reset: every open connection is destroyed with an RST, both sides; new ones pass', async () => {
    const a = await client();
    const b = await client();
    a.sock.write('x');
    await until(() => a.got() === 'x');
    await proxy.until((k) => k.open === 2);
    expect(proxy.reset()).toBe(2);
    const [ea, eb] = await Promise.all([a.ended, b.ended]);
    expect(ea.error).toBe('ECONNRESET');
    expect(eb.error).toBe('ECONNRESET');
    await until(() => serverSide.size === 0);
    expect(serverErrors.filter((e) => e === 'ECONNRESET').length).toBe(2);
    expect(proxy.mode).toBe('pass');
    const c = await client();
    c.sock.write('again');
    await until(() => c.got() === 'again');
    expect(proxy.counters()).toMatchObject({ reset: 2, accepted: 3, open: 1 });
  });

  it('refuse: new connections are reset at once while open ones carry on; pass lets them in again', async () => {
    const open = await client();
    proxy.refuse();
    const refused = connect({ port: proxy.port, host: '127.0.0.1' });
    clients.push(refused);
    let got = '';
    refused.on('data', (d) => (got += d.toString()));
    const how = await new Promise<string>((r) => {
      refused.on('error', (e: NodeJS.ErrnoException) => r(e.code ?? e.message));
      refused.on('close', () => r('closed'));
    });
    expect(how).toMatch(/ECONNRESET|closed/);
    expect(got).toBe('');
    open.sock.write('alive');
    await until(() => open.got() === 'alive');
    proxy.pass();
    const c = await client();
    c.sock.write('in');
    await until(() => c.got() === 'in');
    expect(proxy.counters()).toMatchObject({ refused: 1, accepted: 2 });
  });

  it('delay: every chunk comes late, in order per direction', async () => {
    const c = await client();
    proxy.delay(20, 60);
    const sent = Date.now();
    const words = Array.from({ length: 30 }, (_, i) => `w${i};`);
    for (const w of words) {
      c.sock.write(w);
      await new Promise((r) => setImmediate(r));
    }
    await until(() => c.got() === words.join(''));
    // Up and down both delayed: at least twice the minimum.
    expect(Date.now() - sent).toBeGreaterThanOrEqual(40);
    expect(proxy.counters().delayedChunks).toBeGreaterThanOrEqual(2);
    proxy.pass();
    c.sock.write('now');
    await until(() => c.got().endsWith('now'));
  });
});
