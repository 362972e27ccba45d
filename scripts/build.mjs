#!/usr/bin/env node
// `npm run build`: declarations (tsc), bundles (rollup), rolled-up .d.ts and the API report (api-extractor),
// and the API reference (api-documenter).
// With --local the API report is updated; without it (npm test, CI) an outdated report fails the build.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';

const run = (command, args) => execFileSync(command, args, { stdio: 'inherit' });
rmSync('dist', { recursive: true, force: true });
rmSync('build', { recursive: true, force: true });
run('npx', ['tsc', '-p', 'tsconfig.build.json']);
run('npx', ['rollup', '-c', '--silent']);
const local = process.argv.includes('--local') ? ['--local'] : [];
run('node', ['scripts/api-report.mjs', ...local]);
run('node', ['scripts/api-reference.mjs', ...local]);
// The Unity package's GameCampaign.jspre (from the IIFE just built) and .meta files; checked by the tests otherwise.
if (local.length) run('node', ['scripts/unity-package.mjs']);
