#!/usr/bin/env node
// Launcher for the operator CLI: runs src/cli/main.ts under tsx from any directory.
import { register } from 'tsx/esm/api';

register();
await import(new URL('../src/cli/main.ts', import.meta.url).href);
