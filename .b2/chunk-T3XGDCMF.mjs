import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/cli/notify-flags.ts
function notifyOptions(y) {
  return y.option("notify", { type: "string", array: true, describe: "POST each event (JSON) to this URL; repeat for several (stored with the batch)" }).option("notify-command", { type: "string", describe: "run this shell command for each event this process sends, its JSON on stdin (not stored: give it to each worker that should run it)" }).option("notify-format", { choices: ["json", "slack"], describe: "json (default) or slack (an incoming-webhook message)" }).option("notify-include", { type: "string", array: true, describe: `"question": also send held items' question and meta` }).option("notify-digest", { type: "string", describe: "at most one held-items digest per batch this often (default 5m)" }).option("notify-remind", { type: "string", describe: "remind of items still held after this long (default 1h; off)" }).option("notify-stalled", { type: "string", describe: "tell when the batch made no progress this long (default 15m; off)" }).option("page-url", { type: "string", describe: "public address of the team's web view, for links (default $RESQ_PAGE_URL)" });
}
function notifyFlagsOf(a) {
  return {
    notify: a.notify,
    notifyCommand: a.notifyCommand,
    notifyFormat: a.notifyFormat,
    notifyInclude: a.notifyInclude,
    notifyDigest: a.notifyDigest,
    notifyRemind: a.notifyRemind,
    notifyStalled: a.notifyStalled,
    pageUrl: a.pageUrl
  };
}
function sendOptionsFromEnv(env, leaseMs, command = null, db) {
  return { secret: env.RESQ_NOTIFY_SECRET || null, command, ...leaseMs !== void 0 ? { leaseMs } : {}, ...db ? { db } : {} };
}

export {
  notifyOptions,
  notifyFlagsOf,
  sendOptionsFromEnv
};
//# sourceMappingURL=chunk-T3XGDCMF.mjs.map
