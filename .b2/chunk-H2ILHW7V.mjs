import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/cli/unknown-status.ts
function unknownFinals(items) {
  const out = [];
  for (const it of items)
    if (it.state === "completed" && it.runStatus !== null && it.runStatus !== "completed") out.push({ id: it.id, status: it.runStatus });
  return out;
}
async function listUnknownFinals(store, batch) {
  return unknownFinals(await store.listItems(batch.id, { states: ["completed"], runStatusOtherThan: "completed" }));
}
function describeUnknownFinals(u) {
  const by = /* @__PURE__ */ new Map();
  for (const x of u) by.set(x.status, (by.get(x.status) ?? 0) + 1);
  return [...by.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([s, n]) => `${n} finished with status ${s}`).join(", ");
}

export {
  unknownFinals,
  listUnknownFinals,
  describeUnknownFinals
};
//# sourceMappingURL=chunk-H2ILHW7V.mjs.map
