import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  isoNow
} from "./chunk-64FYAIQV.mjs";
import {
  TERMINAL_STATES
} from "./chunk-MH23QIYG.mjs";
import {
  escapeControls
} from "./chunk-E7YGSVGC.mjs";

// src/cli/live-bar.ts
var HIDE_CURSOR = "\x1B[?25l";
var SHOW_CURSOR = "\x1B[?25h";
var CLEAR_LINE = "\r\x1B[K";
var FRAME_MS = 200;
function formatEta(seconds) {
  if (seconds === null || !Number.isFinite(seconds)) return "?";
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor(s % 3600 / 60)).padStart(2, "0")}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${s}s`;
}
function renderBar(o) {
  const text = ` ${o.done}/${o.total} | ${o.fields} | ${o.rate.toFixed(1)}/s | ETA ${formatEta(o.eta)}`;
  const room = o.columns - 1 - text.length - 2;
  const width = Math.min(30, room);
  let out = text.trimStart();
  if (width >= 5) {
    const filled = o.total > 0 ? Math.round(Math.min(o.done, o.total) / o.total * width) : 0;
    out = `[${"#".repeat(filled)}${"-".repeat(width - filled)}]${text}`;
  }
  return out.length > o.columns - 1 ? `${out.slice(0, Math.max(0, o.columns - 2))}\u2026` : out;
}
function liveBar(stream, fieldsFormat, columns, now = Date.now) {
  let started = false;
  let stopped = false;
  let t0 = 0;
  let done0 = 0;
  let total = 0;
  let done2 = 0;
  let fields = {};
  let given = null;
  let lastDraw = 0;
  const fill = (f) => fieldsFormat.replace(/\{(\w+)\}/g, (_, k) => String(f[k] ?? ""));
  const text = () => {
    if (given) return renderBar({ done: done2, total, fields: fill(fields), rate: given.perS ?? 0, eta: given.etaS, columns });
    const secs = (now() - t0) / 1e3;
    const rate = secs > 0 ? (done2 - done0) / secs : 0;
    const eta = rate > 0 ? (total - done2) / rate : null;
    return renderBar({ done: done2, total, fields: fill(fields), rate, eta, columns });
  };
  const draw = (force) => {
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
      done2 = d;
      total = n;
      fields = f;
      started = true;
      stream.write(HIDE_CURSOR);
      draw(true);
    },
    update: (d, f, n, r) => {
      done2 = d;
      fields = f;
      if (r) given = r;
      if (n !== void 0) total = n;
      draw(false);
    },
    note: (line) => {
      if (started && !stopped) stream.write(`${CLEAR_LINE}${line}
`);
      else stream.write(`${line}
`);
      draw(true);
    },
    stop: () => {
      if (!started || stopped) return;
      draw(true);
      stopped = true;
      stream.write(`
${SHOW_CURSOR}`);
    }
  };
}

// src/cli/progress.ts
function done(c) {
  let n = 0;
  for (const s of TERMINAL_STATES) n += c[s];
  return n;
}
function inFlightOf(c) {
  return c.submitting + c.running + c.waiting;
}
function describeWorkers(ws) {
  const list = ws.slice(0, 5).map((w) => `pid ${w.pid} on host ${w.host}`).join(", ");
  return `${ws.length} other worker${ws.length === 1 ? "" : "s"} (${list}${ws.length > 5 ? ", \u2026" : ""})`;
}
function descriptorLine(e) {
  const n = (x) => x.toLocaleString("en-US");
  return `notice: --concurrency ${n(e.concurrency)} needs about ${n(e.needed)} open files; this process may open ${n(e.limit)}: running ${n(e.runs)} at once; to run them all, raise it before resq: ulimit -n ${e.needed}`;
}
function judgingToGo(e) {
  return `judging with the agent: ${e.total - e.done} of ${e.total} judging${e.total === 1 ? "" : "s"} to go (batch ${escapeControls(e.batch)})`;
}
function agentProgress() {
  let batch = "";
  let answersOver = false;
  let judgingShown = false;
  const fields = (c, inFlight) => ({ inFlight, held: c.held, failed: c.failed + c.error });
  return {
    barFormat: "in flight {inFlight} | held {held} | failed {failed}",
    read(e) {
      switch (e.type) {
        case "start": {
          batch = e.batch;
          const line = `batch ${e.batch}: ${e.total} item${e.total === 1 ? "" : "s"}, ${done(e.counts)} already finished, ${e.resumed} re-attached`;
          return { kind: "start", line, aboveBar: done(e.counts) > 0 || e.resumed > 0, total: e.total, done: done(e.counts), fields: fields(e.counts, e.resumed) };
        }
        case "progress":
          return { kind: "bar", done: done(e.counts), fields: fields(e.counts, e.inFlight), total: e.total, rate: { perS: e.ratePerS, etaS: e.etaS } };
        // After a stop the runs still going at the service are in flight, as the summary says.
        case "end":
          answersOver = true;
          return { kind: "bar", done: done(e.counts), fields: fields(e.counts, inFlightOf(e.counts)) };
        case "joined":
          return e.others.length > 0 ? { kind: "notice", line: `notice: joining batch ${batch}: ${describeWorkers(e.others)}` } : null;
        case "waiting":
          return { kind: "notice", line: `notice: nothing left to claim: waiting for ${describeWorkers(e.workers)} with ${e.inFlight} items in flight (--no-wait to leave now)` };
        case "warning":
          return { kind: "problem", line: `warning: ${e.message}` };
        case "cap":
          return { kind: "detail", line: `in-flight cap now ${e.cap} (${e.reason})` };
        case "descriptors":
          return { kind: "notice", line: descriptorLine(e) };
        // While answers run, judgings keep pace with them; what is left after is long work of its own.
        case "judging":
          if (judgingShown) return { kind: "bar", done: e.done, total: e.total, fields: {} };
          if (!answersOver || e.done >= e.total) return null;
          judgingShown = true;
          return { kind: "phase", line: judgingToGo(e), format: "judgings", total: e.total, done: e.done };
        default:
          return null;
      }
    }
  };
}
function jsonRenderer(out, err) {
  let pending = "";
  const flush = () => {
    if (pending === "") return;
    const text = pending;
    pending = "";
    out.write(text);
  };
  return {
    onEvent: (e) => {
      if (pending === "") queueMicrotask(flush);
      pending += `${JSON.stringify({ ...e, at: isoNow() })}
`;
    },
    note: (line) => {
      flush();
      err.write(`${line}
`);
    },
    stop: flush
  };
}
function barRenderer(stream, columns, kind = agentProgress()) {
  let bar = liveBar(stream, kind.barFormat, columns);
  const problems = [];
  return {
    onEvent: (e) => {
      const s = kind.read(e);
      if (!s) return;
      if (s.kind === "start") {
        if (s.aboveBar) bar.note(s.line);
        bar.start(s.total, s.done, s.fields);
      } else if (s.kind === "bar") bar.update(s.done, s.fields, s.total, s.rate);
      else if (s.kind === "phase") {
        bar.stop();
        bar = liveBar(stream, s.format, columns);
        bar.note(s.line);
        bar.start(s.total, s.done, {});
      } else if (s.kind === "notice") bar.note(s.line);
      else if (s.kind === "problem") problems.push(s.line);
    },
    note: (line) => bar.note(line),
    stop: () => {
      bar.stop();
      for (const p of problems) stream.write(`${p}
`);
    }
  };
}
function plainRenderer(stream, kind = agentProgress()) {
  return {
    onEvent: (e) => {
      const s = kind.read(e);
      if (s && s.kind !== "bar") stream.write(`${s.line}
`);
    },
    note: (line) => stream.write(`${line}
`),
    stop: () => {
    }
  };
}
function pickRenderer(json, io, kind = agentProgress()) {
  if (json) return jsonRenderer(io.stdout, io.stderr);
  if (io.isTTY) return barRenderer(io.stderr, io.columns, kind);
  return plainRenderer(io.stderr, kind);
}

export {
  done,
  describeWorkers,
  descriptorLine,
  judgingToGo,
  agentProgress,
  jsonRenderer,
  barRenderer,
  plainRenderer,
  pickRenderer
};
//# sourceMappingURL=chunk-FEF6I5IO.mjs.map
