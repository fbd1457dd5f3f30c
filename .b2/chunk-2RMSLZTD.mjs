import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/base-url.ts
function checkBaseUrl(raw) {
  if (typeof raw !== "string" || raw.trim() === "") return { ok: false, reason: "is missing" };
  let url;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: "is not a valid URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, reason: `must use http or https, not ${url.protocol.replace(":", "")}` };
  }
  if (url.username !== "" || url.password !== "") {
    return { ok: false, reason: "must not contain a user name or password: the API key comes from RESQ_API_KEY" };
  }
  if (url.search !== "" || url.hash !== "") return { ok: false, reason: "must not have a query string or fragment" };
  const path = url.pathname.replace(/\/+$/, "");
  if (!path.endsWith("/api/v1")) return { ok: false, reason: `must end in /api/v1 (its path is ${JSON.stringify(url.pathname)})` };
  return { ok: true, baseUrl: `${url.origin}${path}` };
}
var BASE_URL_HINT = "the service address ending in /api/v1, e.g. https://host.example/api/v1";

export {
  checkBaseUrl,
  BASE_URL_HINT
};
//# sourceMappingURL=chunk-2RMSLZTD.mjs.map
