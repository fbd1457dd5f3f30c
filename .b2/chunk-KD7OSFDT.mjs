import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  oneLine
} from "./chunk-5GEFFECR.mjs";
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";

// src/store/postgres/pooler.ts
var OWN = ["pooler", "direct"];
function parsePgTarget(url) {
  let u;
  try {
    u = new URL(url);
  } catch {
    return { url, pooler: false, directUrl: null };
  }
  const mode = u.searchParams.get("pooler");
  const direct = u.searchParams.get("direct");
  if (mode !== null && mode !== "transaction" && mode !== "session")
    throw new InputError(`--db: pooler=${oneLine(mode, 40)} is not a pooling mode resq knows: pooler=transaction (PgBouncer's pool_mode = transaction) or pooler=session`);
  for (const k of OWN) u.searchParams.delete(k);
  const clean = u.toString();
  if (direct === null) return { url: clean, pooler: mode === "transaction", directUrl: null };
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?$/.exec(direct);
  if (!m || m[2] !== void 0 && (Number(m[2]) < 1 || Number(m[2]) > 65535))
    throw new InputError(`--db: direct=${oneLine(direct, 80)} is not HOST or HOST:PORT (PostgreSQL itself, behind the pooler: same database, user and password)`);
  const d = new URL(clean);
  d.hostname = m[1];
  d.port = m[2] ?? "5432";
  return { url: clean, pooler: mode === "transaction", directUrl: d.toString() };
}
var SYMPTOMS = /* @__PURE__ */ new Set(["42P05", "26000"]);
function poolerHint(err) {
  const code = String(err?.code ?? "");
  const msg = err instanceof Error ? err.message : "";
  if (!SYMPTOMS.has(code) && !/unsupported startup parameter/i.test(msg)) return null;
  return 'is the database behind a pooler in transaction mode (PgBouncer)? Add ?pooler=transaction to the URL (README: "Several workers, several machines")';
}

export {
  parsePgTarget,
  poolerHint
};
//# sourceMappingURL=chunk-KD7OSFDT.mjs.map
