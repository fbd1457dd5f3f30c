import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  isPostgresUrl
} from "./chunk-HPW6PH2N.mjs";

// src/store/location.ts
function maskLocation(location) {
  if (!isPostgresUrl(location)) return location;
  try {
    const u = new URL(location);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return location.replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@");
  }
}

export {
  maskLocation
};
//# sourceMappingURL=chunk-755LHRXT.mjs.map
