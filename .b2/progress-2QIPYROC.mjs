import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  agentProgress,
  barRenderer,
  describeWorkers,
  descriptorLine,
  done,
  jsonRenderer,
  judgingToGo,
  pickRenderer,
  plainRenderer
} from "./chunk-FEF6I5IO.mjs";
import "./chunk-64FYAIQV.mjs";
import "./chunk-MH23QIYG.mjs";
import "./chunk-E7YGSVGC.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  agentProgress,
  barRenderer,
  describeWorkers,
  descriptorLine,
  done,
  jsonRenderer,
  judgingToGo,
  pickRenderer,
  plainRenderer
};
//# sourceMappingURL=progress-2QIPYROC.mjs.map
