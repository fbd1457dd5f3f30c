import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// src/store/notify-settings.ts
function withoutStoredCommand(settings) {
  const n = settings?.notify;
  if (n === null || typeof n !== "object" || !("command" in n)) return settings;
  const { command: _dropped, ...rest } = n;
  return { ...settings, notify: rest };
}
function notifyOver(given, was) {
  return given.urls.length === 0 && was ? { ...given, urls: was.urls } : given;
}

export {
  withoutStoredCommand,
  notifyOver
};
//# sourceMappingURL=chunk-QFB6ZTTJ.mjs.map
