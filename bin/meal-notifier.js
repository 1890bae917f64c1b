#!/usr/bin/env node
// Runs the TypeScript CLI in place through tsx, so `npx meal-notifier` works right after `npm install`.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
