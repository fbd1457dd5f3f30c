import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  checkBaseUrl
} from "./chunk-2RMSLZTD.mjs";
import {
  ConfigError
} from "./chunk-4EMWZ36I.mjs";
import {
  commandHint
} from "./chunk-BXVQVF7L.mjs";
import {
  isPostgresUrl
} from "./chunk-HPW6PH2N.mjs";

// src/cli/service.ts
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
function choiceFor(c) {
  return { sim: c.sim, baseUrl: c.baseUrl, ...c.from === "stored" ? { storedBaseUrl: true } : {} };
}
function withoutPassword(url) {
  try {
    const u = new URL(url);
    u.password = "";
    return u.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, "@");
  }
}
function simStatePath(dbPath) {
  if (isPostgresUrl(dbPath)) return `resq-sim-${createHash("sha256").update(withoutPassword(dbPath)).digest("hex").slice(0, 12)}.json`;
  return `${dbPath}.sim.json`;
}
function simInUse(e, dbPath) {
  const db = isPostgresUrl(dbPath) ? withoutPassword(dbPath) : dbPath;
  return new ConfigError(
    `the built-in simulator of ${db} is in use by another resq process (pid ${e.holder.pid} on ${e.holder.host}); two simulators on one state file would lose each other's runs. To work one --sim batch from several processes, serve its simulator in a terminal of its own: \`${commandHint(["resq", "sim", "--db", db])}\`; every --sim process on that database then shares it. (If that process is gone from another host, remove ${e.statePath}.lock.)`
  );
}
var HOW_TO = "Set RESQ_BASE_URL (the service base URL, ending in /api/v1) and RESQ_API_KEY, or pass --base-url URL; or add --sim to use the built-in simulator (no account needed).";
function baseUrlOf(raw) {
  const r = checkBaseUrl(raw);
  if (!r.ok) throw new ConfigError(`base URL ${r.reason}. ${HOW_TO}`);
  return r.baseUrl;
}
function resolveService(choice, env) {
  if (choice.sim) return { kind: "sim" };
  const raw = choice.baseUrl ?? env.RESQ_BASE_URL;
  if (!raw) throw new ConfigError(`no service configured. ${HOW_TO}`);
  const baseUrl = baseUrlOf(raw);
  const apiKey = env.RESQ_API_KEY;
  if (!apiKey && choice.storedBaseUrl)
    throw new ConfigError(`RESQ_API_KEY is not set: the batch runs on its stored base URL ${baseUrl}, which needs the API key in RESQ_API_KEY`);
  if (!apiKey) throw new ConfigError(`RESQ_API_KEY is not set. ${HOW_TO}`);
  return { kind: "url", baseUrl, apiKey };
}
async function openService(choice, opts) {
  const r = resolveService(choice, opts.env);
  const { ServiceClient } = await import("./api-WF67GA6G.mjs");
  let sim = null;
  let baseUrl;
  let apiKey;
  if (r.kind === "sim") {
    const { startSim, sharedSim, SimStateInUseError } = await import("./sim-NJCENH4X.mjs");
    const statePath = opts.dbPath && (isPostgresUrl(opts.dbPath) || existsSync(opts.dbPath)) ? simStatePath(opts.dbPath) : null;
    if (opts.simStateMustExist && (!statePath || !existsSync(statePath)))
      throw new ConfigError(
        `the batch ran on the built-in simulator, but its state (${statePath ? resolve(statePath) : "beside the database"}) is not there, so its runs are unknown${opts.dbPath && isPostgresUrl(opts.dbPath) ? " (a PostgreSQL batch's simulator state is kept in the folder its --sim processes ran in: resume from there)" : ""}; start a new batch, or serve a simulator and pass its URL as --base-url: ${commandHint(["resq", "sim"], { db: opts.dbPath })}`
      );
    const shared = statePath ? sharedSim(statePath) : null;
    if (shared) {
      ({ url: baseUrl, key: apiKey } = shared);
    } else {
      sim = await startSim(statePath ? { statePath } : {}).catch((e) => {
        throw e instanceof SimStateInUseError ? simInUse(e, opts.dbPath ?? "") : e;
      });
      baseUrl = sim.url;
      apiKey = sim.keys[0] ?? "";
    }
  } else {
    baseUrl = r.baseUrl;
    apiKey = r.apiKey;
  }
  const client = new ServiceClient({
    baseUrl,
    apiKey,
    connections: opts.connections ?? 128,
    onLog: (e) => service.onLog?.(e)
  });
  const service = {
    client,
    baseUrl,
    kind: r.kind,
    onLog: null,
    sameProcess: sim !== null,
    check: async () => {
      await client.listThreads();
    },
    close: async () => {
      await client.close();
      await sim?.close();
    }
  };
  return service;
}

export {
  choiceFor,
  simStatePath,
  resolveService,
  openService
};
//# sourceMappingURL=chunk-HT6CBTQB.mjs.map
