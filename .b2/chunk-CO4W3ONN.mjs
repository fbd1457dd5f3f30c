import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  questionSchema,
  readChunks,
  readTable
} from "./chunk-UZQXFT2K.mjs";
import {
  fileChunks,
  hashFile
} from "./chunk-UPSBM6NF.mjs";

// src/tables/question-set.ts
import { createHash } from "node:crypto";
function readQuestionSet(path, opts = {}) {
  return readTable(path, questionSchema, opts);
}
async function validateQuestionSet(path, opts = {}) {
  const maxProblems = opts.maxProblems ?? 1e3;
  const tap = { hash: createHash("sha256"), complete: false };
  const summary = { rows: 0, invalid: 0, problems: [], notices: [] };
  const onNotice = (text) => {
    summary.notices.push(text);
    opts.onNotice?.(text);
  };
  const rows = readChunks(fileChunks(path, tap), path, questionSchema, opts.format, opts.checkIds ?? true, onNotice);
  for await (const result of rows) {
    if (result.ok) {
      summary.rows++;
    } else {
      summary.invalid++;
      if (summary.problems.length < maxProblems) summary.problems.push(result.problem);
    }
  }
  const sha256 = tap.complete ? tap.hash.digest("hex") : await hashFile(path);
  return { ...summary, sha256 };
}

export {
  readQuestionSet,
  validateQuestionSet
};
//# sourceMappingURL=chunk-CO4W3ONN.mjs.map
