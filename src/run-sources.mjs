// Lets Node run this checkout's TypeScript sources as they are: Node strips their types
// itself (they use only erasable syntax: tsconfig's erasableSyntaxOnly), and one in-thread
// resolve hook maps their `./x.js` imports (TypeScript's NodeNext spelling) to `./x.ts`.
// Imported first by the CLI's launcher in a checkout (bin/launch.js) and by the question
// reader's thread (src/tables/row-batch-worker.mjs). No loader thread, unlike tsx, and
// the stripped modules go through V8's compile cache like any other: a checkout's command
// starts ~0.15 s sooner. The built package has no src/ and needs none of this.
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
