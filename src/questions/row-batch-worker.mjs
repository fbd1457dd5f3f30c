// Entry of the question reader thread (src/questions/row-batches.ts). Worker threads do
// not inherit the main thread's loader hooks (tsx), and tsx would start one more thread
// of its own here. Node strips the types of this folder's modules itself (they use only
// erasable syntax); one in-thread resolve hook maps their `./x.js` imports to `./x.ts`.
import { existsSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

registerHooks({
  resolve(specifier, context, next) {
    if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
      const ts = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
      if (existsSync(fileURLToPath(ts))) return next(ts.href, context);
    }
    return next(specifier, context);
  },
});
await import('./row-batch-worker.ts');
