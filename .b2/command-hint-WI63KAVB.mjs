import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  DEFAULT_DB,
  commandHint,
  hintFlags
} from "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  DEFAULT_DB,
  commandHint,
  hintFlags
};
//# sourceMappingURL=command-hint-WI63KAVB.mjs.map
