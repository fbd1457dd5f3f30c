import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  InputError
} from "./chunk-4EMWZ36I.mjs";
import {
  shellLine
} from "./chunk-KPNMTWYO.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-5OSXGZ5J.mjs";

// src/cli/same-source.ts
import { basename, extname, resolve } from "node:path";
function sourceMismatch(batch, questions, changed) {
  if (!(changed instanceof InputError)) return changed;
  if (resolve(questions) === resolve(batch.sourcePath)) return changed;
  const stem = basename(questions, extname(questions));
  return new InputError(
    `a batch named "${batch.name}" already exists in this database from another file (${batch.sourcePath}); to run ${questions} as its own batch, name it: ${shellLine(["--batch", `${stem}-${extname(questions).slice(1) || "new"}`])}`
  );
}
export {
  sourceMismatch
};
//# sourceMappingURL=same-source-IVFEZBJ6.mjs.map
