// Lets Node run this checkout's TypeScript sources as they are: Node strips their types
// itself (they use only erasable syntax: tsconfig's erasableSyntaxOnly), and one in-thread
// resolve hook maps their `./x.js` imports (TypeScript's NodeNext spelling) to `./x.ts`.
// Imported first by the question reader's thread when the library runs from its sources (the
// tests, a notebook in a checkout: src/tables/row-batch-worker.mjs). No loader thread, unlike
// tsx. The CLI runs a bundle instead (scripts/cli-bundle.mjs), and the package has no src/.
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
