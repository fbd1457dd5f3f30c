import { InputError } from '../errors.js';

/** `90s`, `5m`, `1h`, `2d`, or a number of seconds, as ms; `off` (or 0) as null when `allowOff`. */
export function parseDuration(flag: string, text: string, allowOff: boolean): number | null {
  const t = text.trim().toLowerCase();
  if (allowOff && (t === 'off' || t === '0' || t === 'never')) return null;
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/.exec(t);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m?.[2] ?? 's'] ?? 1_000;
  const ms = m ? Math.round(Number(m[1]) * unit) : NaN;
  if (!Number.isFinite(ms) || ms <= 0)
    throw new InputError(`--${flag}: expected a duration such as 90s, 5m or 1h${allowOff ? ' (or off)' : ''}, got "${text}"`);
  return ms;
}
