import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/store/common/file-expiry.ts
var FILE_RETENTION_MS = 30 * 24 * 3600 * 1e3;
function fileExpiry(seenAt, runCreatedAt) {
  const base = runCreatedAt && !Number.isNaN(runCreatedAt.getTime()) ? runCreatedAt : seenAt;
  return new Date(base.getTime() + FILE_RETENTION_MS);
}

// src/store/shapes.ts
function pauseFromRow(r) {
  let action = {};
  try {
    const v = JSON.parse(r.requiredAction);
    if (typeof v === "object" && v !== null) action = v;
  } catch {
  }
  const input = typeof action.input === "object" && action.input !== null && !Array.isArray(action.input) ? action.input : {};
  return {
    itemId: r.itemId,
    runId: r.runId,
    step: Number(r.step),
    tool: typeof action.tool === "string" ? action.tool : "unknown",
    input,
    pausedAt: r.pausedAt,
    decision: r.by === null || r.answer === null || r.decidedAt === null ? null : { answer: JSON.parse(r.answer), by: r.by, person: r.person, reason: r.reason, cost: Number(r.cost ?? 0), decidedAt: r.decidedAt, seq: Number(r.decisionSeq ?? 0) }
  };
}

// src/store/item-page-shapes.ts
function encodeCursor(c) {
  return Buffer.from(JSON.stringify([c.v, c.seq]), "utf8").toString("base64url");
}
function decodeCursor(s) {
  try {
    const v = JSON.parse(Buffer.from(s, "base64url").toString("utf8"));
    if (!Array.isArray(v) || v.length !== 2) return null;
    const [a, seq] = v;
    if (typeof a !== "string" && typeof a !== "number" || typeof seq !== "number" || !Number.isInteger(seq)) return null;
    return { v: a, seq };
  } catch {
    return null;
  }
}
function cutText(s, n = 200) {
  return s === null ? null : s.length > n ? `${s.slice(0, n)}\u2026` : s;
}

export {
  FILE_RETENTION_MS,
  fileExpiry,
  pauseFromRow,
  encodeCursor,
  decodeCursor,
  cutText
};
//# sourceMappingURL=chunk-HXA3HFZH.mjs.map
