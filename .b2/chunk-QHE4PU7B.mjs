import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/notify/deliver.ts
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
function receiversOf(n, command = null) {
  return [...n.urls.map((url) => ({ kind: "url", url })), ...command ? [{ kind: "command", command }] : []];
}
function receiverTag(r) {
  return createHash("sha256").update(r.kind === "url" ? `url ${r.url}` : "cmd").digest("hex").slice(0, 16);
}
function receiverName(r) {
  return r.kind === "url" ? new URL(r.url).host : "the notify command";
}
async function deliver(r, body, headers, timeoutMs, signal) {
  return r.kind === "url" ? post(r.url, body, headers, timeoutMs, signal) : runCommand(r.command, body, headers, timeoutMs, signal);
}
async function post(url, body, headers, timeoutMs, signal) {
  const timeout = AbortSignal.timeout(timeoutMs);
  let res;
  try {
    res = await fetch(url, {
      method: "POST",
      body,
      headers: { "Content-Type": "application/json", "User-Agent": "resq-notify", ...headers },
      redirect: "error",
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout
    });
  } catch (e) {
    if (timeout.aborted) throw new Error(`no answer in ${Math.round(timeoutMs / 1e3)} s`);
    if (signal?.aborted) throw new Error("stopped before an answer");
    const code = e.cause?.code;
    throw new Error(code ?? "request failed");
  }
  await res.arrayBuffer().catch(() => void 0);
  if (res.status < 200 || res.status > 299) throw new Error(`HTTP ${res.status}`);
}
var SECRET_ENV = ["RESQ_API_KEY", "RESQ_NOTIFY_SECRET", "RESQ_SERVE_TOKEN", "RESQ_DB", "PGPASSWORD"];
function runCommand(command, body, headers, timeoutMs, signal) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, RESQ_EVENT_ID: headers["X-Resq-Event-Id"] ?? "", RESQ_EVENT_TYPE: headers["X-Resq-Event-Type"] ?? "" };
    for (const name of SECRET_ENV) delete env[name];
    const child = spawn("/bin/sh", ["-c", command], { stdio: ["pipe", "ignore", "ignore"], env, detached: true });
    let settled = false;
    const end = (err) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", stop);
      if (err) reject(err);
      else resolve();
    };
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
      }
    };
    const stop = () => {
      kill();
      end(new Error("stopped"));
    };
    const timer = setTimeout(() => {
      kill();
      end(new Error(`no end in ${Math.round(timeoutMs / 1e3)} s`));
    }, timeoutMs);
    signal?.addEventListener("abort", stop, { once: true });
    child.on("error", (e) => end(new Error(e.code ?? "failed to start")));
    child.on("exit", (code, sig) => end(code === 0 ? null : new Error(`exited with ${code ?? sig}`)));
    child.stdin.on("error", () => {
    });
    child.stdin.end(body);
  });
}

export {
  receiversOf,
  receiverTag,
  receiverName,
  deliver,
  SECRET_ENV
};
//# sourceMappingURL=chunk-QHE4PU7B.mjs.map
