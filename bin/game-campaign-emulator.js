#!/usr/bin/env node
// `game-campaign-emulator [--port N] [--host H] [--webhook-host H]... [--json]`: runs the built CLI (dist/, in the published package; `npm run build` in a checkout).
// In a checkout that was never built it runs the TypeScript source through tsx instead.
import { existsSync } from 'node:fs';

const built = new URL('../dist/emulator-cli.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../emulator/cli.ts', import.meta.url).href);
}
