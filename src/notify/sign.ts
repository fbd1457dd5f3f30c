import { createHmac, timingSafeEqual } from 'node:crypto';
import { systemClock } from '../clock.js';

// The signature of a notification, as Stripe signs its webhooks: a timestamp and an
// HMAC-SHA256 of `timestamp.body` under the shared secret (RESQ_NOTIFY_SECRET), in one header.

/** The header a signed request carries. */
export const SIGNATURE_HEADER = 'X-Resq-Signature';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const t = Math.floor(unixSeconds);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** Options of {@link verifySignature}. */
export interface VerifyOptions {
  /** How old (or how far ahead) a timestamp may be, in seconds. @default 300 */
  toleranceS?: number;
  /** The receiver's time, ms since the epoch. @default the system clock's now */
  now?: number;
}

/**
 * Whether `header` signs `body` (the raw request body, byte for byte) under `secret`, with a
 * timestamp within the tolerance: a replayed request (an old timestamp) or an altered body fails.
 */
export function verifySignature(secret: string, header: string | null | undefined, body: string, o: VerifyOptions = {}): boolean {
  if (!header) return false;
  const parts = new Map(header.split(',').map((p) => { const i = p.indexOf('='); return [p.slice(0, i).trim(), p.slice(i + 1).trim()] as const; }));
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1') ?? '';
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(v1)) return false;
  const nowS = (o.now ?? systemClock.now()) / 1000;
  if (Math.abs(nowS - t) > (o.toleranceS ?? 300)) return false;
  const want = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return timingSafeEqual(want, Buffer.from(v1, 'hex'));
}
