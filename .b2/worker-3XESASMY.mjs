import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  deliver,
  receiverName,
  receiverTag,
  receiversOf
} from "./chunk-QHE4PU7B.mjs";
import {
  judgingUnderWay
} from "./chunk-VUJC3A3Q.mjs";
import {
  sleep,
  systemClock
} from "./chunk-64FYAIQV.mjs";
import "./chunk-5GEFFECR.mjs";
import "./chunk-ADUNF5BB.mjs";
import {
  rateWords,
  readScoreRates
} from "./chunk-DL5UYYIV.mjs";
import "./chunk-EL7BER4H.mjs";
import {
  FAILED_STATES,
  UNFINISHED_STATES
} from "./chunk-MH23QIYG.mjs";
import "./chunk-4EMWZ36I.mjs";
import {
  commandHint
} from "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/notify/sender.ts
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";

// src/notify/events.ts
function pageLinks(pageUrl, batchName) {
  const base = pageUrl ? `${pageUrl.replace(/\/+$/, "")}/b/${encodeURIComponent(batchName)}` : null;
  return { batch: base, item: (id) => base ? `${base}/i/${encodeURIComponent(id)}` : null };
}
function eventId(c) {
  return `${c.batchId}.${c.key}`;
}
function eventHint(batch, c, place) {
  const resume = c.type === "batch.stalled" && c.data.reason === "no live worker";
  return commandHint(["resq", resume ? "resume" : "status", batch.name], place);
}
async function buildEvent(store, batch, n, c, place = {}) {
  const links = pageLinks(n.pageUrl, batch.name);
  const doc = {
    id: eventId(c),
    type: c.type,
    createdAt: new Date(c.createdAt).toISOString(),
    batch: { id: batch.id, name: batch.name },
    counts: await store.itemCounts(batch.id),
    link: links.batch,
    hint: eventHint(batch, c, place)
  };
  if (c.type === "items.held") {
    doc.reminder = c.data.reminder === true;
    doc.items = [];
    for (const h of c.held) {
      const it = { id: h.itemId, tool: h.tool, cost: h.cost, ...h.untrustedCost === null ? {} : { untrustedCost: h.untrustedCost }, reason: h.reason, heldAt: new Date(h.heldAt).toISOString(), link: links.item(h.itemId) };
      if (n.includeQuestion) {
        const rec = await store.getItem(batch.id, h.itemId);
        if (rec) Object.assign(it, { question: rec.question, meta: rec.meta });
      }
      doc.items.push(it);
    }
  } else if (c.type === "batch.finished") {
    doc.approvedCost = await store.approvedCost(batch.id);
    doc.failures = {};
    for (const it of await store.listItems(batch.id, { states: FAILED_STATES })) {
      const code = it.errorCode ?? it.state;
      doc.failures[code] = (doc.failures[code] ?? 0) + 1;
    }
    doc.scores = await readScoreRates(store, batch);
  } else if (c.type === "batch.stalled") {
    doc.reason = String(c.data.reason ?? "no progress");
    doc.since = typeof c.data.since === "string" ? c.data.since : null;
  } else if (c.type === "budget.reached") {
    doc.share = Number(c.data.share);
    doc.budget = Number(c.data.budget);
    doc.approved = Number(c.data.approved);
  }
  return doc;
}

// src/notify/sign.ts
import { createHmac, timingSafeEqual } from "node:crypto";
var SIGNATURE_HEADER = "X-Resq-Signature";
function signatureHeader(secret, body, unixSeconds) {
  const t = Math.floor(unixSeconds);
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

// src/notify/slack.ts
function esc(s) {
  return s.replace(/[\u0000-\u001f\u007f]/g, " ").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
var link = (url, text) => url ? `<${url}|${esc(text)}>` : esc(text);
function money(n) {
  return n === null || n === void 0 ? "?" : String(Math.round(n * 100) / 100);
}
function slackText(e) {
  return `${slackBody(e)}
\`${esc(e.hint)}\``;
}
function slackBody(e) {
  const batch = link(e.link, e.batch.name);
  const c = e.counts;
  switch (e.type) {
    case "items.held": {
      const items = e.items ?? [];
      const head = `${e.reminder ? "Still waiting" : "Waiting"} for a person: ${items.length} item${items.length === 1 ? "" : "s"} held in batch ${batch}`;
      const lines = items.slice(0, 20).map((i) => `\u2022 ${link(i.link, i.id)} \u2014 ${esc(i.tool ?? "pause")}, cost ${i.untrustedCost === void 0 ? money(i.cost) : esc(i.untrustedCost)}${i.reason ? `: ${esc(i.reason)}` : ""}`);
      if (items.length > 20) lines.push(`\u2026 and ${items.length - 20} more`);
      return [head, ...lines].join("\n");
    }
    case "batch.finished": {
      const failures = Object.entries(e.failures ?? {}).map(([k, n]) => `${esc(k)} ${n}`).join(", ");
      const scores = (e.scores ?? []).map((s) => `${esc(s.name)} ${rateWords(s)}`).join(", ");
      return `Batch ${batch} finished: ${c.completed} completed, ${c.failed} failed, ${c.error} error, ${c.cancelled} cancelled; approved cost ${money(e.approvedCost)}${failures ? `; failures: ${failures}` : ""}${scores ? `; pass rates: ${scores}` : ""}`;
    }
    case "batch.stalled":
      return `Batch ${batch} has made no progress${e.since ? ` since ${e.since}` : ""}: ${esc(e.reason ?? "")} (${c.held} held, ${c.queued} queued)`;
    case "budget.reached":
      return `Batch ${batch} reached ${e.share}% of its budget: ${money(e.approved)} of ${money(e.budget)} approved`;
    default:
      return `Batch ${batch}: ${esc(e.type)}`;
  }
}

// src/notify/sender.ts
var JUDGING_RECHECK_MS = 1e3;
var Notifier = class {
  owner = `${hostname()}:${process.pid}:notify:${randomUUID().slice(0, 8)}`;
  /** Batches whose events this sender's command is recorded as taking (ended by {@link finish}). */
  #holding = /* @__PURE__ */ new Set();
  #o;
  #clock;
  #stop = new AbortController();
  /** Cuts the deliveries under way: only when a leaving worker's time is up. */
  #cut = new AbortController();
  #loop = null;
  #lastProblem = "";
  constructor(o) {
    this.#o = o;
    this.#clock = o.clock ?? systemClock;
  }
  /** Starts the background loop (once). */
  start() {
    this.#loop ??= (async () => {
      while (!this.#stop.signal.aborted) {
        await this.tick(this.#cut.signal).catch((e) => this.#problem(`notifications: ${e.message}`));
        await this.#clock.sleep(this.#o.pollMs ?? 2e3, this.#stop.signal);
      }
    })();
  }
  /**
   * Stops the loop, then sends what is due for up to `graceMs` (a worker leaving delivers what it
   * caused; its held items go out in a digest now). What is not sent by then stays in the outbox
   * for the next sender. A delivery under way when it is called is let go on until then, not cut
   * at once: a cut request the receiver took would be sent again.
   */
  async finish(graceMs = 5e3) {
    this.#stop.abort();
    const deadline = this.#cut;
    const timer = setTimeout(() => deadline.abort(), graceMs);
    try {
      await this.#loop;
      let first = true;
      while (!deadline.signal.aborted) {
        const n = await this.tick(this.#cut.signal, first).catch((e) => {
          this.#problem(`notifications: ${e.message}`);
          return -1;
        });
        first = false;
        if (n > 0) continue;
        if (n < 0 || this.#o.batchId === null || await this.#undelivered() === 0) break;
        await sleep(Math.min(250, graceMs), deadline.signal);
      }
    } finally {
      clearTimeout(timer);
      await this.#release();
    }
  }
  /** The other senders take the batch's events again at once: this one's command is leaving. */
  async #release() {
    for (const batchId of this.#holding) await this.#o.store.holdNotifyCommand(batchId, this.#me(), 0).catch(() => void 0);
    this.#holding.clear();
  }
  #me() {
    return { owner: this.owner, host: hostname(), pid: process.pid };
  }
  async #undelivered() {
    try {
      return (await this.#o.store.outboxState(this.#o.batchId)).undelivered;
    } catch {
      return 0;
    }
  }
  /** One pass: digests, stalls, then the due events claimed and sent. Returns how many were claimed. */
  async tick(signal, foldNow = false) {
    const { store } = this.#o;
    const batches = await this.#batches();
    const now = this.#clock.now();
    for (const [b, n] of batches) {
      await store.collateHeld(b.id, { digestMs: foldNow ? 0 : n.digestMs, remindMs: n.remindMs });
      if (n.stalledMs !== null) await this.#noteStall(b, n.stalledMs, now);
    }
    if (batches.size === 0 && this.#o.batchId === null) return 0;
    const byId = new Map([...batches.keys()].map((b) => [b.id, b]));
    const claims = await store.claimOutbox(this.owner, { leaseMs: this.#o.leaseMs ?? 6e4, limit: 20, batchIds: [...byId.keys()] });
    await Promise.all(claims.map((c) => this.#send(c, byId.get(c.batchId), signal)));
    return claims.length;
  }
  /**
   * The batches this pass sends for, with their settings. A sender with a command records that
   * it takes the batch's events (renewed each pass, for a claim's lease); one without leaves a
   * batch to such a sender while it lives, so the command misses no event to a sender that
   * cannot run it (`resq serve` never can).
   */
  async #batches() {
    const { store, batchId } = this.#o;
    const list = batchId === null ? await store.listBatches() : [await store.findBatch(batchId)];
    const out = /* @__PURE__ */ new Map();
    for (const b of list) {
      if (!b?.settings.notify) continue;
      if (this.#o.command) {
        await store.holdNotifyCommand(b.id, this.#me(), this.#o.leaseMs ?? 6e4);
        this.#holding.add(b.id);
      } else if ((await store.notifyCommands(b.id)).length > 0) continue;
      out.set(b, b.settings.notify);
    }
    return out;
  }
  async #noteStall(b, stalledMs, now) {
    const { store } = this.#o;
    const counts = await store.itemCounts(b.id);
    const unfinished = UNFINISHED_STATES.reduce((s, k) => s + counts[k], 0);
    if (unfinished === 0) return;
    const st = await store.outboxState(b.id);
    const since = st.lastChangeAt ?? b.createdAt;
    if (now - Date.parse(since) < stalledMs) return;
    const live = await store.liveWorkers(b.id, this.#o.staleMs ?? 6e4);
    const reason = counts.held === unfinished ? "every item held" : live.length === 0 ? "no live worker" : "no progress at the service (refusing or not answering)";
    await store.addOutboxEvent(b.id, { key: `stalled:${since}`, type: "batch.stalled", data: { reason, since } });
  }
  async #send(c, b, signal) {
    const { store } = this.#o;
    const n = b.settings.notify;
    try {
      if (c.type === "batch.finished" && await judgingUnderWay(store, b, this.#o.staleMs ?? 6e4)) {
        await store.settleOutbox(c, { sent: false, error: `${c.type} ${eventId(c)}: waiting for the agent judge's verdicts`, retryInMs: JUDGING_RECHECK_MS, delivered: c.delivered, deferred: true });
        return;
      }
      const doc = await buildEvent(store, b, n, c, { db: this.#o.db });
      const json = JSON.stringify(doc);
      const body = n.format === "slack" ? JSON.stringify({ text: slackText(doc) }) : json;
      const todo = receiversOf(n, this.#o.command ?? null).filter((r) => !c.delivered.includes(receiverTag(r)));
      const results = await Promise.allSettled(
        todo.map((r) => {
          const sent = r.kind === "command" ? json : body;
          const headers = { "X-Resq-Event-Id": doc.id, "X-Resq-Event-Type": doc.type };
          if (this.#o.secret) headers[SIGNATURE_HEADER] = signatureHeader(this.#o.secret, sent, this.#clock.now() / 1e3);
          return deliver(r, sent, headers, this.#o.timeoutMs ?? 1e4, signal);
        })
      );
      const failed = results.flatMap((r, i) => r.status === "rejected" ? [`${receiverName(todo[i])}: ${r.reason.message}`] : []);
      if (failed.length === 0) {
        await store.settleOutbox(c, { sent: true });
        return;
      }
      const delivered = [...c.delivered, ...todo.filter((_, i) => results[i].status === "fulfilled").map(receiverTag)];
      const error = `${doc.type} ${doc.id}: ${failed.join("; ")}`;
      this.#problem(`notification not delivered (will retry): ${error}`);
      await store.settleOutbox(c, { sent: false, error, retryInMs: signal?.aborted ? 0 : this.#backoff(c.attempts), delivered });
    } catch (e) {
      this.#problem(`notifications: ${e.message}`);
    }
  }
  #backoff(attempts) {
    const base = this.#o.retryBaseMs ?? 2e3;
    const ms = Math.min(this.#o.retryMaxMs ?? 6e5, base * 2 ** Math.max(0, attempts - 1));
    return Math.round(ms / 2 + Math.random() * ms / 2);
  }
  #problem(message) {
    if (message === this.#lastProblem) return;
    this.#lastProblem = message;
    try {
      this.#o.onProblem?.(message);
    } catch {
    }
  }
};

// src/notify/worker.ts
function timings(o) {
  const leaseMs = o.leaseMs ?? 6e4;
  return { leaseMs, timeoutMs: Math.max(100, Math.min(1e4, Math.floor(leaseMs * 0.6))) };
}
function startWorkerNotifier(store, batch, o = {}) {
  if (!batch.settings.notify) return null;
  const n = new Notifier({ ...o, ...timings(o), store, batchId: batch.id });
  n.start();
  return n;
}
function startServeNotifier(store, o = {}) {
  const n = new Notifier({ ...o, ...timings(o), store, batchId: null, command: null });
  n.start();
  return n;
}
export {
  startServeNotifier,
  startWorkerNotifier
};
//# sourceMappingURL=worker-3XESASMY.mjs.map
