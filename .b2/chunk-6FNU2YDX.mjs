import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  DEFAULT_DB_WAIT_MS
} from "./chunk-LX2MAEXG.mjs";
import {
  systemClock
} from "./chunk-64FYAIQV.mjs";
import {
  maskLocation
} from "./chunk-755LHRXT.mjs";
import {
  isPostgresUrl
} from "./chunk-HPW6PH2N.mjs";

// src/store/open.ts
var NOT_READY = /* @__PURE__ */ new Set(["57P03", "57P01", "57P02", "08001", "08006", "ECONNREFUSED", "ECONNRESET"]);
var RETRY_EVERY_MS = 500;
async function openStore(location, opts = {}) {
  if (isPostgresUrl(location)) {
    const [{ PostgresStore }, { PostgresConnectError }] = await Promise.all([import("./postgres-store-WK7CVB6M.mjs"), import("./pool-VKLWDFAJ.mjs")]);
    const clock = opts.clock ?? systemClock;
    const waitMs = opts.waitMs ?? DEFAULT_DB_WAIT_MS;
    const start = clock.now();
    let said = false;
    for (; ; ) {
      try {
        return await PostgresStore.open(location, {
          clock,
          waitMs,
          ...opts.onWait ? { onWait: opts.onWait } : {},
          ...opts.leaseMs !== void 0 ? { leaseMs: opts.leaseMs } : {}
        });
      } catch (e) {
        if (!(e instanceof PostgresConnectError) || !NOT_READY.has(e.reason ?? "")) throw e;
        const waited = clock.now() - start;
        const bound = `${Math.round(waitMs / 1e3)} s`;
        if (waited >= waitMs)
          throw new PostgresConnectError(`${e.message} (waited ${bound} for the server to accept connections; is it running?)`, e.reason);
        if (!said) opts.onWait?.(`the database ${maskLocation(location)} is not accepting connections (${e.reason}: starting up or restarting?): waiting up to ${bound}`);
        said = true;
        await clock.sleep(Math.min(RETRY_EVERY_MS, waitMs - waited));
      }
    }
  }
  const { SqliteStore } = await import("./sqlite-store-U3CNCZQY.mjs");
  return SqliteStore.open(location, { readonly: opts.readonly ?? false, clock: opts.clock ?? systemClock, waitMs: opts.waitMs ?? DEFAULT_DB_WAIT_MS, ...opts.onWait ? { onWait: opts.onWait } : {} });
}

export {
  openStore
};
//# sourceMappingURL=chunk-6FNU2YDX.mjs.map
