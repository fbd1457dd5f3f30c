import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  INVITE_MAX_MS,
  INVITE_MS,
  SessionBook,
  sessionKey,
  urlHost
} from "./chunk-DCKHWPBG.mjs";
import {
  parseDuration
} from "./chunk-YODIRQJW.mjs";
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/cli/serve-invite.ts
function inviteLifeMs(text) {
  if (text === void 0) return INVITE_MS;
  const ms = parseDuration("for", text, false);
  if (ms > INVITE_MAX_MS) throw new InputError(`--for: ${text} is longer than an invitation may wait (30d at most)`);
  return ms;
}
function inviteOrigin(a) {
  if (a.behindProxy && a.allowHosts.length > 0) return `https://${a.allowHosts[0]}`;
  if (a.port === 0) throw new InputError("--invite: give the --port resq serve listens on (not 0), or --behind-proxy with the proxy's --allow-host");
  return `http://${urlHost(a.host)}:${a.port}`;
}
async function makeInvite(store, a, now = Date.now) {
  const lifeMs = inviteLifeMs(a.for);
  const origin = inviteOrigin(a);
  if (a.token === void 0) throw new InputError("--invite: needs RESQ_SERVE_TOKEN, the token of the resq serve that takes the link (or use the page's Invite button)");
  const { code, expiresAt } = await new SessionBook({ store, key: sessionKey(a.token), now }).invite(lifeMs);
  return [`invite: ${origin}/?code=${code}`, `(works once, until ${expiresAt.toISOString()}, on any resq serve of this database)`];
}
export {
  inviteLifeMs,
  inviteOrigin,
  makeInvite
};
//# sourceMappingURL=serve-invite-J4W4CPRM.mjs.map
