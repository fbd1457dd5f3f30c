/**
 * What a reverse proxy in front says about the browser's request, read as proxies write it and
 * only when `resq serve --behind-proxy` says one is there (otherwise anyone could send the headers).
 */

/** The first element of a comma list (the hop nearest the browser: proxies append), commas inside quotes kept. */
function firstElement(value: string): string {
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) return value.slice(0, i);
  }
  return value;
}

/** The `proto` of a `Forwarded` header's first element (RFC 7239: `for=…;proto=https`), or null. */
function forwardedHeaderProto(value: string): string | null {
  for (const pair of firstElement(value).split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim().toLowerCase() !== 'proto') continue;
    return pair.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
  }
  return null;
}

/**
 * The scheme the browser used by what the proxy says: `Forwarded`'s `proto` first, else
 * `X-Forwarded-Proto`; case-insensitive, the first of a comma list. Null when neither says.
 */
export function forwardedProto(header: (name: string) => string | undefined): string | null {
  const forwarded = header('forwarded');
  const proto = forwarded === undefined ? null : forwardedHeaderProto(forwarded);
  if (proto) return proto;
  const x = header('x-forwarded-proto');
  return x === undefined ? null : firstElement(x).trim().toLowerCase() || null;
}

/** Whether a request reached the proxy over https: only when there is a proxy (`--behind-proxy`) and it says so. */
export function viaHttps(behindProxy: boolean, header: (name: string) => string | undefined): boolean {
  return behindProxy && forwardedProto(header) === 'https';
}
