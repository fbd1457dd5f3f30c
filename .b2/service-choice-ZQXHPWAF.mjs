import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  chooseService,
  overrideNote
} from "./chunk-GOFJ5TZN.mjs";
import "./chunk-5OSXGZ5J.mjs";
export {
  chooseService,
  overrideNote
};
//# sourceMappingURL=service-choice-ZQXHPWAF.mjs.map
