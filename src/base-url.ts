// The service's base URL, checked by one set of rules wherever it enters: the client's
// options, `--base-url` / RESQ_BASE_URL, and a pipeline's `service:`. Pure.

/** A base URL that passed, or why it did not (in words that never echo the value: it may hold a key). */
export type BaseUrlCheck = { ok: true; baseUrl: string } | { ok: false; reason: string };

/**
 * Checks a base URL: http or https, no user name or password (the key comes from the
 * environment), no query or fragment, a path ending in `/api/v1`. Returns it normalised
 * (scheme and host lower-cased, default port and trailing slashes dropped).
 */
export function checkBaseUrl(raw: unknown): BaseUrlCheck {
  if (typeof raw !== 'string' || raw.trim() === '') return { ok: false, reason: 'is missing' };
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: 'is not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `must use http or https, not ${url.protocol.replace(':', '')}` };
  }
  // Credentials in the URL would end up in logs and the database; the key belongs in RESQ_API_KEY.
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'must not contain a user name or password: the API key comes from RESQ_API_KEY' };
  }
  if (url.search !== '' || url.hash !== '') return { ok: false, reason: 'must not have a query string or fragment' };
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/api/v1')) return { ok: false, reason: `must end in /api/v1 (its path is ${JSON.stringify(url.pathname)})` };
  return { ok: true, baseUrl: `${url.origin}${path}` };
}

/** How to name a service to connect to, in every message that needs to say so. */
export const BASE_URL_HINT = 'the service address ending in /api/v1, e.g. https://host.example/api/v1';
