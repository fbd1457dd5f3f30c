import { enableCompileCache } from 'node:module';
enableCompileCache();
await (await import('./cli/main.mjs')).main();
