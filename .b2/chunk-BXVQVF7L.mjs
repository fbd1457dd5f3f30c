import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  shellLine
} from "./chunk-KPNMTWYO.mjs";
import {
  isPostgresUrl
} from "./chunk-HPW6PH2N.mjs";

// src/text/command-hint.ts
var DEFAULT_DB = "resq.db";
function commandHint(argv, place = {}) {
  return shellLine([...argv, ...hintFlags(place)]);
}
function hintFlags(place) {
  const db = place.db;
  const flags = db && db !== DEFAULT_DB && !isPostgresUrl(db) ? ["--db", db] : [];
  return place.sim ? [...flags, "--sim"] : flags;
}

export {
  DEFAULT_DB,
  commandHint,
  hintFlags
};
//# sourceMappingURL=chunk-BXVQVF7L.mjs.map
