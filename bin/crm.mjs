#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx (see docs/adr/0001-typescript-runtime.md).
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
