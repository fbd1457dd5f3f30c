import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  describeUnknownFinals,
  listUnknownFinals,
  unknownFinals
} from "./chunk-H2ILHW7V.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  describeUnknownFinals,
  listUnknownFinals,
  unknownFinals
};
//# sourceMappingURL=unknown-status-YV4XV6D2.mjs.map
