import { enableCompileCache } from 'node:module';
enableCompileCache();
await (await import('./main.mjs')).main();
