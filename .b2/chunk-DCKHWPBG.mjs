import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/web/hosts.ts
import { hostname, networkInterfaces } from "node:os";
var LOOPBACK = /* @__PURE__ */ new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);
var ANY = /* @__PURE__ */ new Set(["0.0.0.0", "::", "[::]"]);
function isLoopback(host) {
  return LOOPBACK.has(host);
}
function urlHost(host) {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}
function machineNames() {
  const names = /* @__PURE__ */ new Set([hostname().toLowerCase()]);
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (!a.internal) names.add(urlHost(a.address.replace(/%.*$/, "")).toLowerCase());
  return [...names];
}
function ownHosts(bound, port, machine = machineNames()) {
  const hosts = /* @__PURE__ */ new Set([`${urlHost(bound)}:${port}`.toLowerCase()]);
  if (isLoopback(bound) || ANY.has(bound)) for (const h of ["127.0.0.1", "localhost", "[::1]"]) hosts.add(`${h}:${port}`);
  if (!isLoopback(bound)) for (const m of machine) hosts.add(`${m}:${port}`);
  return [...hosts];
}
function allowedHosts(bound, port, extra, machine) {
  const exact = new Set(ownHosts(bound, port, machine));
  const anyPort = /* @__PURE__ */ new Set();
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
    return anyPort.has(h.replace(/:\d+$/, ""));
  };
}

// src/web/sessions.ts
import { createHmac, randomBytes } from "node:crypto";
var CODE_MS = 5 * 6e4;
var SESSION_IDLE_MS = 8 * 60 * 6e4;
var INVITE_MS = 24 * 60 * 6e4;
var INVITE_MAX_MS = 30 * 24 * 60 * 6e4;
var secret = () => randomBytes(16).toString("base64url");
function sessionCookieName(port) {
  return `resq-session-${port}`;
}
function sessionKey(token) {
  return createHmac("sha256", token).update("resq serve session v1").digest("base64url");
}
function secretDigest(key, secret2) {
  return createHmac("sha256", key).update(secret2, "utf8").digest("base64url");
}
var SessionBook = class {
  #store;
  #now;
  /** Codes handed out but perhaps not yet written: a spend waits for them. */
  #writing = /* @__PURE__ */ new Set();
  #onError;
  #key;
  /** `key`: the session key ({@link sessionKey} of the token) the digests are made with. */
  constructor(o) {
    this.#store = o.store;
    this.#key = o.key;
    this.#now = o.now;
    this.#onError = o.onError ?? (() => void 0);
  }
  #digest(secret2) {
    return secretDigest(this.#key, secret2);
  }
  /** A one-time login code that lets its first visitor in within `lifeMs`, once written. */
  async invite(lifeMs = INVITE_MS) {
    const code = secret();
    const now = this.#now();
    await this.#store.addLoginCode(this.#digest(code), now + lifeMs, now);
    return { code, expiresAt: new Date(now + lifeMs) };
  }
  /**
   * A new login code for the next {@link CODE_MS}, at once (a link to print): it is written
   * in the background, and {@link spendCode} and {@link written} wait for the write.
   */
  newCode() {
    const code = secret();
    const now = this.#now();
    const w = this.#store.addLoginCode(this.#digest(code), now + CODE_MS, now).catch(this.#onError);
    this.#writing.add(w);
    void w.finally(() => this.#writing.delete(w));
    return code;
  }
  /** Resolves once every code handed out is written. */
  async written() {
    await Promise.all([...this.#writing]);
  }
  /** Spends a code: true once, for a live code; false for a spent, expired or unknown one. */
  async spendCode(code) {
    await this.written();
    return this.#store.spendLoginCode(this.#digest(code), this.#now());
  }
  /** A new session id (128 random bits), live from now. */
  async open() {
    const id = secret();
    await this.#store.openWebSession(this.#digest(id), this.#now());
    return id;
  }
  /** Whether a session (its cookie's signature already checked) is live, counting this use. */
  use(id) {
    return this.#store.useWebSession(this.#digest(id), SESSION_IDLE_MS, this.#now());
  }
  /** Ends a session for good (signed out, or replaced by a new login). */
  end(id) {
    return this.#store.endWebSession(this.#digest(id), this.#now());
  }
};

export {
  isLoopback,
  urlHost,
  ownHosts,
  allowedHosts,
  INVITE_MS,
  INVITE_MAX_MS,
  sessionCookieName,
  sessionKey,
  SessionBook
};
//# sourceMappingURL=chunk-DCKHWPBG.mjs.map
