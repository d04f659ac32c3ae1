#!/usr/bin/env node
// The brand CLI, `npx passport …` (docs/cli.md). It is TypeScript, run through tsx's loader
// (a dependency of this workspace), so no build step stands between the source and the command.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
