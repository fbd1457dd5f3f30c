import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  parseDuration
} from "./chunk-YODIRQJW.mjs";
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";

// src/cli/notify-settings.ts
var NOTIFY_DEFAULTS = { digestMs: 5 * 6e4, remindMs: 60 * 6e4, stalledMs: 15 * 6e4 };
var list = (v) => v === void 0 ? [] : Array.isArray(v) ? v : [v];
function checkReceiverUrl(flag, text) {
  let u;
  try {
    u = new URL(text);
  } catch {
    throw new InputError(`--${flag}: not a URL (expected http:// or https://\u2026)`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:" || !u.hostname) throw new InputError(`--${flag}: expected an http:// or https:// URL, got ${u.protocol}`);
  if (u.username || u.password) throw new InputError(`--${flag}: a user name or password in the URL is not allowed (it would be stored with the batch)`);
  return u.toString();
}
function notifyCommandOf(f) {
  if (f.notifyCommand === void 0) return null;
  if (!f.notifyCommand.trim()) throw new InputError("--notify-command: give a command (it gets each event's JSON on stdin)");
  return f.notifyCommand;
}
function notifyFromFlags(f, env, was) {
  const urls = list(f.notify).map((u) => checkReceiverUrl("notify", u));
  const command = notifyCommandOf(f);
  const tuned = [f.notifyFormat, f.notifyInclude, f.notifyDigest, f.notifyRemind, f.notifyStalled, f.pageUrl].some((v) => v !== void 0);
  if (urls.length === 0 && command === null && !was) {
    if (tuned) throw new InputError("--notify: give a receiver URL (or --notify-command) for the notification settings to apply to");
    return void 0;
  }
  if (urls.length === 0 && !tuned && was) return void 0;
  const format = f.notifyFormat ?? was?.format ?? "json";
  if (format !== "json" && format !== "slack") throw new InputError(`--notify-format: expected json or slack, got "${format}"`);
  const include = list(f.notifyInclude);
  for (const i of include) if (i !== "question") throw new InputError(`--notify-include: only "question" can be included, got "${i}"`);
  const pageText = f.pageUrl ?? env.RESQ_PAGE_URL;
  const pageUrl = pageText ? checkReceiverUrl(f.pageUrl !== void 0 ? "page-url" : "page-url (RESQ_PAGE_URL)", pageText).replace(/\/+$/, "") : was?.pageUrl ?? null;
  return {
    urls: urls.length > 0 ? urls : was?.urls ?? [],
    format,
    includeQuestion: include.length > 0 || f.notifyInclude === void 0 && (was?.includeQuestion ?? false),
    pageUrl,
    digestMs: f.notifyDigest !== void 0 ? parseDuration("notify-digest", f.notifyDigest, false) : was?.digestMs ?? NOTIFY_DEFAULTS.digestMs,
    remindMs: f.notifyRemind !== void 0 ? parseDuration("notify-remind", f.notifyRemind, true) : was ? was.remindMs : NOTIFY_DEFAULTS.remindMs,
    stalledMs: f.notifyStalled !== void 0 ? parseDuration("notify-stalled", f.notifyStalled, true) : was ? was.stalledMs : NOTIFY_DEFAULTS.stalledMs
  };
}
function checkNotifyFlags(f, env) {
  notifyFromFlags(f, env, { urls: [], format: "json", includeQuestion: false, pageUrl: null, ...NOTIFY_DEFAULTS });
}

export {
  NOTIFY_DEFAULTS,
  checkReceiverUrl,
  notifyCommandOf,
  notifyFromFlags,
  checkNotifyFlags
};
//# sourceMappingURL=chunk-NYF3W5K3.mjs.map
