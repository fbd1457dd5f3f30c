import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  judgingLine,
  judgingLines
} from "./chunk-UDZ42KZE.mjs";
import "./chunk-BXVQVF7L.mjs";
import "./chunk-KPNMTWYO.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-HPW6PH2N.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  judgingLine,
  judgingLines
};
//# sourceMappingURL=judging-line-7BS4NJ2P.mjs.map
