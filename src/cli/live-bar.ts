/** What a live bar shows besides the bar and the done count: `in flight 3 | held 0 | failed 1`. */
export type BarFields = Record<string, string | number>;

/** A one-line progress bar on a terminal that never wraps and never moves the cursor elsewhere. */
export interface LiveBar {
  readonly started: boolean;
  start(total: number, done: number, fields: BarFields): void;
  /**
   * Moves the bar. `rate`: the batch's rate and ETA as the library reads them (the same numbers
   * as `resq status` and the page); without it, this session's own count over its time.
   */
  update(done: number, fields: BarFields, total?: number, rate?: { perS: number | null; etaS: number | null }): void;
  /** Writes a line above the bar (a warning, "stopping: …"): the bar is redrawn below it. */
  note(line: string): void;
  /** Draws the last state, ends the line and shows the cursor again. Idempotent. */
  stop(): void;
}

const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';
const CLEAR_LINE = '\r\x1b[K';
const FRAME_MS = 200;

/** `1h02m`, `3m05s`, `42s`: a duration for the bar. */
export function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

/**
 * The bar's text for `columns` (never longer than columns - 1, so the terminal never wraps
 * it): `[####----] 12/500 | in flight 3 | … | 2.5/s | ETA 3m05s`. The bar shrinks first,
 * then the line is cut.
 */
export function renderBar(o: { done: number; total: number; fields: string; rate: number; eta: number | null; columns: number }): string {
  const text = ` ${o.done}/${o.total} | ${o.fields} | ${o.rate.toFixed(1)}/s | ETA ${formatEta(o.eta)}`;
  const room = o.columns - 1 - text.length - 2;
  const width = Math.min(30, room);
  let out = text.trimStart();
  if (width >= 5) {
    const filled = o.total > 0 ? Math.round((Math.min(o.done, o.total) / o.total) * width) : 0;
    out = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]${text}`;
  }
  return out.length > o.columns - 1 ? `${out.slice(0, Math.max(0, o.columns - 2))}…` : out;
}

/**
 * A live bar on `stream` (a terminal `columns` wide): `fieldsFormat` names the fields between
 * the counts and the rate, e.g. `in flight {inFlight} | failed {failed}`.
 */
export function liveBar(stream: NodeJS.WritableStream, fieldsFormat: string, columns: number, now: () => number = Date.now): LiveBar {
  let started = false;
  let stopped = false;
  let t0 = 0;
  let done0 = 0;
  let total = 0;
  let done = 0;
  let fields: BarFields = {};
  let given: { perS: number | null; etaS: number | null } | null = null;
  let lastDraw = 0;
  const fill = (f: BarFields): string => fieldsFormat.replace(/\{(\w+)\}/g, (_, k: string) => String(f[k] ?? ''));
  const text = (): string => {
    if (given) return renderBar({ done, total, fields: fill(fields), rate: given.perS ?? 0, eta: given.etaS, columns });
    const secs = (now() - t0) / 1000;
    const rate = secs > 0 ? (done - done0) / secs : 0;
    const eta = rate > 0 ? (total - done) / rate : null;
    return renderBar({ done, total, fields: fill(fields), rate, eta, columns });
  };
  const draw = (force: boolean): void => {
    if (!started || stopped) return;
    const t = now();
    if (!force && t - lastDraw < FRAME_MS) return;
    lastDraw = t;
    stream.write(`${CLEAR_LINE}${text()}`);
  };
  return {
    get started() {
      return started;
    },
    start: (n, d, f) => {
      if (started) return;
      t0 = now();
      done0 = d;
      done = d;
      total = n;
      fields = f;
      started = true;
      stream.write(HIDE_CURSOR);
      draw(true);
    },
    update: (d, f, n, r) => {
      done = d;
      fields = f;
      if (r) given = r;
      if (n !== undefined) total = n;
      draw(false);
    },
    note: (line) => {
      if (started && !stopped) stream.write(`${CLEAR_LINE}${line}\n`);
      else stream.write(`${line}\n`);
      draw(true);
    },
    stop: () => {
      if (!started || stopped) return;
      draw(true);
      stopped = true;
      stream.write(`\n${SHOW_CURSOR}`);
    },
  };
}
