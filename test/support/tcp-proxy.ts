import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy a test controls: it listens on a free loopback port and forwards every
 * connection to a target (PostgreSQL's port), with the network's misbehaviour switchable at
 * run time. One proxy per worker, so one worker can be cut off alone.
 *
 * - `pass()`: bytes flow (after any held or delayed ones, in order).
 * - `blackhole()`: a partition. Connections stay open and new ones are accepted, but every
 *   byte, both ways, is held (buffered) until `heal()`: then flushed in order, or, with
 *   `heal({ drop: true })`, thrown away and every connection that lost bytes reset (a stream
 *   with a hole in it is no longer the protocol: a real partition that outlives TCP ends so).
 * - `reset()`: every open connection destroyed now with an RST, both sides (an action: the
 *   mode stays what it was).
 * - `refuse()`: while in this mode, a new connection is reset as soon as it is accepted;
 *   open ones carry on.
 * - `delay(minMs, maxMs)`: every chunk waits a random time in the range; order is kept per
 *   direction (a chunk never overtakes the one before it).
 *
 * Counters (`counters()`) say what happened, so a test can wait on "the worker connected"
 * or check that a fault was in force, instead of guessing at timings.
 */

export type ProxyMode = 'pass' | 'blackhole' | 'deaf' | 'refuse' | 'delay';

export interface ProxyCounters {
  /** Connections accepted and forwarded (not counting refused ones). */
  accepted: number;
  /** Connections reset at accept time in `refuse` mode. */
  refused: number;
  /** Connections destroyed by `reset()` or by a dropping heal. */
  reset: number;
  /** Connections open now. */
  open: number;
  /** Bytes forwarded client → target and target → client. */
  bytesUp: number;
  bytesDown: number;
  /** Chunks that arrived while black-holed (held), and the most bytes held at once. */
  heldChunks: number;
  maxHeldBytes: number;
  /** Bytes held now (not yet forwarded). */
  heldBytes: number;
  /** Bytes thrown away by `heal({ drop: true })`. */
  droppedBytes: number;
  /** Chunks forwarded late in `delay` mode. */
  delayedChunks: number;
}

export interface TcpProxy {
  /** The loopback port the proxy listens on. */
  readonly port: number;
  /** The current mode. */
  readonly mode: ProxyMode;
  /** `url` (a postgres:// URL of the target) with its host and port pointed at the proxy. */
  urlFor(url: string): string;
  pass(): void;
  blackhole(): void;
  /**
   * Requests pass, answers are held (target → client): what a client sees when the network
   * fails just after its COMMIT went out — the server commits, the answer never arrives.
   */
  deaf(): void;
  /** Leaves `blackhole` (or any mode) for `pass`: held bytes flushed in order, or dropped. */
  heal(o?: { drop?: boolean }): void;
  /** Destroys every open connection now with an RST; returns how many. */
  reset(): number;
  refuse(): void;
  delay(minMs: number, maxMs: number): void;
  counters(): ProxyCounters;
  /** Resolves once `pred(counters)` holds (checked on every change and every 20 ms). */
  until(pred: (c: ProxyCounters) => boolean, timeoutMs?: number): Promise<void>;
  /** Stops listening and destroys every connection. */
  close(): Promise<void>;
}

interface Chunk {
  buf: Buffer;
  /** When it may be written (0: at once). */
  due: number;
}

/** One direction of one connection: chunks in order, written when due and not held. */
class Pipe {
  readonly queue: Chunk[] = [];
  #timer: NodeJS.Timeout | null = null;
  #lastDue = 0;
  #ended = false;
  readonly to: Socket;
  readonly proxy: ProxyState;
  readonly count: (n: number) => void;
  /** Whether this pipe carries answers (target → client): held in `deaf` mode too. */
  readonly answers: boolean;
  constructor(to: Socket, proxy: ProxyState, count: (n: number) => void, answers = false) {
    this.to = to;
    this.proxy = proxy;
    this.count = count;
    this.answers = answers;
  }

  /** Whether bytes are held in this direction now. */
  get #held(): boolean {
    return this.proxy.mode === 'blackhole' || (this.proxy.mode === 'deaf' && this.answers);
  }

  push(buf: Buffer): void {
    const p = this.proxy;
    let due = 0;
    if (p.mode === 'delay') {
      // Order kept: never due before the chunk ahead of it.
      due = Math.max(Date.now() + p.delayMin + Math.random() * (p.delayMax - p.delayMin), this.#lastDue);
      this.#lastDue = due;
      p.c.delayedChunks++;
    }
    if (this.#held) p.c.heldChunks++;
    this.queue.push({ buf, due });
    p.c.heldBytes += buf.length;
    if (p.c.heldBytes > p.c.maxHeldBytes) p.c.maxHeldBytes = p.c.heldBytes;
    this.pump();
  }

  /** The source ended: end the destination once everything before it is written. */
  end(): void {
    this.#ended = true;
    this.pump();
  }

  pump(): void {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    if (this.#held || this.to.destroyed) return;
    const now = Date.now();
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      if (head.due > now) {
        this.#timer = setTimeout(() => this.pump(), head.due - now);
        return;
      }
      this.queue.shift();
      this.proxy.c.heldBytes -= head.buf.length;
      this.count(head.buf.length);
      this.to.write(head.buf);
    }
    if (this.#ended && !this.to.destroyed) this.to.end();
  }

  drop(): number {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    let n = 0;
    for (const ch of this.queue.splice(0)) n += ch.buf.length;
    this.proxy.c.heldBytes -= n;
    return n;
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.proxy.c.heldBytes -= this.queue.reduce((n, ch) => n + ch.buf.length, 0);
    this.queue.splice(0);
  }
}

interface Conn {
  client: Socket;
  upstream: Socket;
  up: Pipe;
  down: Pipe;
  /** Counted out of `open` already. */
  done: boolean;
}

interface ProxyState {
  mode: ProxyMode;
  delayMin: number;
  delayMax: number;
  c: ProxyCounters;
}

/** An RST where the socket still can, else a plain destroy. */
function rst(s: Socket): void {
  if (s.destroyed) return;
  try {
    s.resetAndDestroy();
  } catch {
    s.destroy();
  }
}

/** Starts a proxy to `targetPort` on 127.0.0.1 (or `targetHost`). */
export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const state: ProxyState = {
    mode: 'pass',
    delayMin: 0,
    delayMax: 0,
    c: { accepted: 0, refused: 0, reset: 0, open: 0, bytesUp: 0, bytesDown: 0, heldChunks: 0, maxHeldBytes: 0, heldBytes: 0, droppedBytes: 0, delayedChunks: 0 },
  };
  const conns = new Set<Conn>();
  const watchers = new Set<() => void>();
  const changed = (): void => {
    for (const w of [...watchers]) w();
  };
  const forget = (conn: Conn): void => {
    if (conn.done) return;
    conn.done = true;
    conns.delete(conn);
    state.c.open--;
    changed();
  };
  const kill = (conn: Conn): void => {
    conn.up.stop();
    conn.down.stop();
    rst(conn.client);
    rst(conn.upstream);
    forget(conn);
  };

  const server: Server = createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
    client.on('error', () => {});
    if (state.mode === 'refuse') {
      state.c.refused++;
      rst(client);
      changed();
      return;
    }
    state.c.accepted++;
    state.c.open++;
    const upstream = connect({ port: targetPort, host: targetHost, allowHalfOpen: true, noDelay: true });
    upstream.on('error', () => {});
    const conn: Conn = {
      client,
      upstream,
      up: new Pipe(upstream, state, (n) => (state.c.bytesUp += n)),
      down: new Pipe(client, state, (n) => (state.c.bytesDown += n), true),
      done: false,
    };
    conns.add(conn);
    let closed = 0;
    const gone = (hard: boolean) => {
      closed++;
      if (hard) {
        // One side went away with an error (a reset): so does the other, with an RST.
        conn.up.stop();
        conn.down.stop();
        rst(client);
        rst(upstream);
      }
      // A clean close passed its FIN on through the pipe (after the bytes queued before it).
      if (hard || closed >= 2) forget(conn);
    };
    // Writes to the upstream before it connected are buffered by the socket itself.
    client.on('data', (d: Buffer) => conn.up.push(d));
    upstream.on('data', (d: Buffer) => conn.down.push(d));
    client.on('end', () => conn.up.end());
    upstream.on('end', () => conn.down.end());
    client.on('close', (hadError) => gone(hadError));
    upstream.on('close', (hadError) => gone(hadError));
    changed();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;

  const resetAll = (): number => {
    const list = [...conns];
    state.c.reset += list.length;
    for (const c of list) kill(c);
    changed();
    return list.length;
  };

  const setMode = (m: ProxyMode): void => {
    state.mode = m;
    if (m !== 'blackhole') for (const c of conns) (c.up.pump(), c.down.pump());
    changed();
  };

  return {
    port,
    get mode() {
      return state.mode;
    },
    urlFor(url: string): string {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    pass: () => setMode('pass'),
    blackhole: () => setMode('blackhole'),
    deaf: () => setMode('deaf'),
    heal(o = {}) {
      if (o.drop) {
        const lost = [...conns].filter((c) => c.up.queue.length + c.down.queue.length > 0);
        for (const c of lost) state.c.droppedBytes += c.up.drop() + c.down.drop();
        state.c.reset += lost.length;
        for (const c of lost) kill(c);
      }
      setMode('pass');
    },
    reset: resetAll,
    refuse: () => setMode('refuse'),
    delay(minMs, maxMs) {
      state.delayMin = Math.max(0, minMs);
      state.delayMax = Math.max(state.delayMin, maxMs);
      setMode('delay');
    },
    counters: () => ({ ...state.c }),
    until(pred, timeoutMs = 60_000) {
      return new Promise<void>((resolve, reject) => {
        let timer: NodeJS.Timeout | null = null;
        let tick: NodeJS.Timeout | null = null;
        const done = (err?: Error) => {
          watchers.delete(check);
          if (timer) clearTimeout(timer);
          if (tick) clearInterval(tick);
          if (err) reject(err);
          else resolve();
        };
        const check = () => {
          if (pred({ ...state.c })) done();
        };
        timer = setTimeout(() => done(new Error(`proxy condition not met within ${timeoutMs} ms: ${JSON.stringify(state.c)}`)), timeoutMs);
        tick = setInterval(check, 20);
        watchers.add(check);
        check();
      });
    },
    async close() {
      for (const c of [...conns]) kill(c);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
