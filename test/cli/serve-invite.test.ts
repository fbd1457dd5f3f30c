import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { inviteLifeMs, inviteOrigin } from '../../src/cli/serve-invite.js';
import { tempDir } from '../support/cli.js';
import { runInProcess } from '../support/in-process-cli.js';
import { onNewConnection } from '../web/support/fresh-connection.js';
import { serveChild } from '../web/support/serve-child.js';

const TOKEN = 'c0ffee5e7a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d';

const get = (url: string, headers: Record<string, string> = {}) => onNewConnection(url, { headers });

describe('resq serve: sessions kept in the database, invitations (real child processes, a real SQLite file)', () => {
  let db: string;
  beforeAll(async () => {
    db = join(tempDir('resq-serve-sessions-'), 'resq.db');
    await SqliteStore.open(db).close();
  });

  it('signed out, then `resq serve` restarted on the same database with the same RESQ_SERVE_TOKEN: the old cookie is refused', { timeout: 60_000 }, async () => {
    const first = await serveChild(['--db', db, '--port', '0'], { RESQ_SERVE_TOKEN: TOKEN });
    const port = new URL(first.origin).port;
    let cookie: string;
    let kept: string;
    try {
      cookie = (await get(first.url)).setCookie!.split(';')[0]!;
      const out = await onNewConnection(`${first.origin}/api/session/end`, { method: 'POST', headers: { Cookie: cookie, Origin: first.origin, 'Content-Type': 'application/json' }, body: '{}' });
      expect(out.status).toBe(204);
      kept = (await get(`${first.origin}/?token=${TOKEN}`)).setCookie!.split(';')[0]!;
      expect((await get(`${first.origin}/api/batches`, { Cookie: cookie })).status).toBe(401);
    } finally {
      expect((await first.stop()).code).toBe(0);
    }
    const again = await serveChild(['--db', db, '--port', port], { RESQ_SERVE_TOKEN: TOKEN });
    try {
      expect((await get(`${again.origin}/api/batches`, { Cookie: cookie })).status).toBe(401);
      expect((await get(`${again.origin}/api/batches`, { Cookie: kept })).status).toBe(200);
    } finally {
      expect((await again.stop()).code).toBe(0);
    }
  });

  it('`resq serve --invite --for 2h` prints a one-time link the running server takes once; the token is not in it', { timeout: 60_000 }, async () => {
    const server = await serveChild(['--db', db, '--port', '0'], { RESQ_SERVE_TOKEN: TOKEN });
    try {
      const port = new URL(server.origin).port;
      const r = await runInProcess(['serve', '--db', db, '--port', port, '--invite', '--for', '2h'], { RESQ_SERVE_TOKEN: TOKEN });
      expect(r.code).toBe(0);
      const m = /^invite: (http:\/\/127\.0\.0\.1:\d+\/\?code=[A-Za-z0-9_-]{22})\n\(works once, until (\S+), on any resq serve of this database\)\n$/.exec(r.stdout);
      expect(m, r.stdout).not.toBeNull();
      expect(Date.parse(m![2]!) - Date.now()).toBeGreaterThan(2 * 3_600_000 - 60_000);
      expect(Date.parse(m![2]!) - Date.now()).toBeLessThanOrEqual(2 * 3_600_000);
      expect(r.stdout).not.toContain(server.token);
      const visit = await get(m![1]!);
      expect(visit.status).toBe(303);
      expect((await get(`${server.origin}/api/batches`, { Cookie: visit.setCookie!.split(';')[0]! })).status).toBe(200);
      expect((await get(m![1]!)).status).toBe(401);
    } finally {
      await server.stop();
    }
  });

  it('bad --invite input is one line and exit 2, nothing written', async () => {
    for (const [args, line] of [
      [['--for', '2h'], 'resq: --for: only with --invite (how long the invitation may wait)\n'],
      [['--invite', '--for', 'soon'], 'resq: --for: expected a duration such as 90s, 5m or 1h, got "soon"\n'],
      [['--invite', '--for', '40d'], 'resq: --for: 40d is longer than an invitation may wait (30d at most)\n'],
      [['--invite', '--port', '0'], "resq: --invite: give the --port resq serve listens on (not 0), or --behind-proxy with the proxy's --allow-host\n"],
      [['--invite'], "resq: --invite: needs RESQ_SERVE_TOKEN, the token of the resq serve that takes the link (or use the page's Invite button)\n"],
    ] as const) {
      const r = await runInProcess(['serve', '--db', db, ...args], line.includes('needs RESQ_SERVE_TOKEN') ? {} : { RESQ_SERVE_TOKEN: TOKEN });
      expect(r, args.join(' ')).toMatchObject({ code: 2, stdout: '', stderr: line });
    }
    const store = SqliteStore.open(db);
    try {
      expect(store.db.prepare('SELECT count(*) FROM web_login_codes WHERE expires_at > ?').pluck().get(Date.now() + 3 * 3_600_000)).toBe(0);
    } finally {
      await store.close();
    }
  });

  it("the invitation's address: the proxy's public name over https behind a proxy, else this server's", () => {
    expect(inviteOrigin({ host: '127.0.0.1', port: 8642, allowHosts: ['resq.example.org'], behindProxy: true })).toBe('https://resq.example.org');
    expect(inviteOrigin({ host: '127.0.0.1', port: 8642, allowHosts: ['resq.example.org'], behindProxy: false })).toBe('http://127.0.0.1:8642');
    expect(inviteOrigin({ host: '::1', port: 8642, allowHosts: [], behindProxy: false })).toBe('http://[::1]:8642');
    expect(inviteLifeMs(undefined)).toBe(24 * 3_600_000);
    expect(inviteLifeMs('7d')).toBe(7 * 86_400_000);
  });
});
