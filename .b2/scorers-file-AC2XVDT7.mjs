import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import "./chunk-RXPVMVT6.mjs";
import {
  describe,
  friendlyErrors,
  parseConfigText,
  problem,
  zodProblems
} from "./chunk-XCINQ3MG.mjs";
import "./chunk-O6UYGKUI.mjs";
import {
  KINDS,
  NAME,
  SETTINGS,
  scorerVersion
} from "./chunk-2A6FAXNZ.mjs";
import "./chunk-UUEOY5IK.mjs";
import "./chunk-KVDTBB5J.mjs";
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/score/scorers-file.ts
import { readFile } from "node:fs/promises";
var fail = (p) => new InputError([p]);
function parseScorers(text, fileName) {
  const doc = parseConfigText(text, fileName);
  const origin = { file: fileName, lineOf: doc.lineOf };
  const top = doc.value;
  if (top === null || typeof top !== "object" || Array.isArray(top))
    throw fail(problem(origin, [], `must be a mapping with \`scorers:\`, found ${describe(top)}`));
  const extra = Object.keys(top).filter((k) => k !== "scorers");
  if (extra.length) throw fail(problem(origin, [extra[0]], "unknown key: the file holds `scorers:` only"));
  const list = top.scorers;
  if (!Array.isArray(list) || list.length === 0) throw fail(problem(origin, ["scorers"], list === void 0 ? "missing: a list of scorers" : "must be a non-empty list of scorers"));
  const seen = /* @__PURE__ */ new Set();
  return list.map((entry, i) => {
    const at = ["scorers", i];
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) throw fail(problem(origin, at, `must be a mapping, found ${describe(entry)}`));
    const { name, kind, ...rest } = entry;
    if (typeof name !== "string" || !NAME.test(name))
      throw fail(problem(origin, [...at, "name"], name === void 0 ? "missing" : "must be 1 to 64 letters, digits, `_` or `-`"));
    if (seen.has(name)) throw fail(problem(origin, [...at, "name"], `"${name}" is named twice`));
    seen.add(name);
    if (typeof kind !== "string" || !KINDS.includes(kind))
      throw fail(problem(origin, [...at, "kind"], kind === void 0 ? `missing: one of ${KINDS.join(", ")}` : `must be one of ${KINDS.join(", ")}`));
    const schema = SETTINGS[kind];
    const parsed = schema.safeParse(rest, { error: friendlyErrors });
    if (!parsed.success) throw fail(zodProblems(parsed.error, { ...origin, prefix: at }, schema)[0]);
    const settings = parsed.data;
    return { name, kind, version: scorerVersion(kind, settings), settings };
  });
}
async function parseScorersFile(path) {
  let text;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    const code = err.code;
    throw fail({ file: path, reason: `cannot read: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : String(code ?? err)}` });
  }
  return parseScorers(text, path);
}
export {
  parseScorers,
  parseScorersFile
};
//# sourceMappingURL=scorers-file-AC2XVDT7.mjs.map
