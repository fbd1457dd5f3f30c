// The page talks to the server only through its JSON API (the one scripts use), with the cookie
// the ?token= visit set. Writes are same-origin POSTs with a JSON body.

/** An answer the API refused: its message for a person, and who answered first when that is why. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error ?? `HTTP ${status}`);
    this.status = status;
    this.body = body ?? {};
  }
}

async function parse(res) {
  const text = await res.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { error: text.trim() || `HTTP ${res.status}` };
  }
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

/** GET a JSON resource. */
export async function getJson(url) {
  return parse(await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' }));
}

/** POST a JSON body. */
export async function postJson(url, body) {
  return parse(await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, credentials: 'same-origin', body: JSON.stringify(body) }));
}

/** API path of a batch (name encoded), plus more parts. */
export function batchApi(name, ...more) {
  return `/api/batches/${[name, ...more].map((p) => encodeURIComponent(p)).join('/')}`;
}
