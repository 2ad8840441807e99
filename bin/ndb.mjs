#!/usr/bin/env node
// The `ndb` command: runs the TypeScript CLI through tsx, so the CLI and the app share src/core as is.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
