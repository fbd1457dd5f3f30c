#!/usr/bin/env node
// The CLI is TypeScript run through tsx, so `npm ci` is the whole install: no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
