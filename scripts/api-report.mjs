#!/usr/bin/env node
// Rolls up the declarations of every entry into dist/<entry>.d.ts (+ .d.cts) with api-extractor, leaving out the
// members that would make the classes each entry declares again compare by name (structural-declarations.mjs), and
// checks its API report under docs/api/. `--local` (npm run build) updates the report; without it
// (npm test, CI) a changed public API with an outdated report fails, as api-extractor intends.
// `--report-folder DIR` and `--entry NAME` check one entry against reports kept elsewhere (without writing
// dist/): the foundation test proves with them that an outdated report fails the check.
// The report and the doc model (docs/reference/) list as values only the names the built module exports
// (scripts/type-only-exports.mjs): api-extractor compares its report with itself in temp/, this script compares
// (or, with --local, writes) the corrected one.
// The declarations of an entry that runs no zod (the client entries) declare no zod either
// (scripts/plain-declarations.mjs); the report and the reference, read from api-extractor's model, keep the schemas.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { ENTRIES } from './entries.mjs';
import { importsZod, plainDeclarations } from './plain-declarations.mjs';
import { structuralDeclarations } from './structural-declarations.mjs';
import { typeOnlyExports, typeOnlyModel, typeOnlyReport } from './type-only-exports.mjs';

const localBuild = process.argv.includes('--local');
const option = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const root = resolve(import.meta.dirname, '..');
const reportFolder = resolve(root, option('--report-folder') ?? 'docs/api');
const onlyEntry = option('--entry');
const rollUp = option('--report-folder') === undefined;
const entries = ENTRIES.filter((entry) => onlyEntry === undefined || entry.name === onlyEntry);
const tempFolder = resolve(root, 'temp', rollUp ? '.' : `check-${process.pid}`);
mkdirSync(reportFolder, { recursive: true });
mkdirSync(tempFolder, { recursive: true });

let failed = false;
for (const entry of entries) {
  const reportName = entry.subpath === '.' ? 'game-campaign-sdk' : `game-campaign-sdk-${entry.name}`;
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: root,
      // Its default is CRLF: the shipped declarations and reports end their lines as every other file does.
      newlineKind: 'lf',
      mainEntryPointFilePath: resolve(root, 'build/types', entry.source.replace(/\.ts$/, '.d.ts')),
      compiler: { tsconfigFilePath: resolve(root, 'tsconfig.build.json') },
      // api-extractor's report (what its rollup declares) is read back from temp/ and corrected below.
      apiReport: { enabled: true, reportFolder: tempFolder, reportTempFolder: tempFolder, reportFileName: `${reportName}.api.md` },
      docModel: { enabled: true, apiJsonFilePath: resolve(tempFolder, `${reportName}.api.json`) },
      dtsRollup: { enabled: rollUp, untrimmedFilePath: resolve(root, `dist/${entry.name}.d.ts`) },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        extractorMessageReporting: {
          default: { logLevel: 'warning' },
          'ae-missing-release-tag': { logLevel: 'none' },
          'ae-forgotten-export': { logLevel: 'none' },
          'ae-undocumented': { logLevel: 'none' },
        },
        tsdocMessageReporting: { default: { logLevel: 'none' } },
      },
    },
    configObjectFullPath: resolve(root, 'api-extractor.json'),
    packageJsonFullPath: resolve(root, 'package.json'),
  });
  const result = Extractor.invoke(config, { localBuild, showVerboseMessages: false });
  // The names the built module exports (rollup wrote it before): the declarations, the report and the reference
  // promise no other value.
  const runtime = new Set(Object.keys(await import(pathToFileURL(resolve(root, `dist/${entry.name}.js`)).href)));
  if (rollUp) {
    const rolledUp = resolve(root, `dist/${entry.name}.d.ts`);
    let declarations = typeOnlyExports(structuralDeclarations(readFileSync(rolledUp, 'utf8')), runtime);
    // An entry whose built module graph runs no zod declares no zod either (a game then needs no zod types and
    // no TypeScript 5.5): its schema-derived types are written out plainly, and a zod reference left fails here.
    // The zod-typed rollup stays in build/ for test/foundation/plain-declarations.test.ts, which proves them equal.
    if (!importsZod(resolve(root, `dist/${entry.name}.js`))) {
      mkdirSync(resolve(root, 'build/zod-declarations'), { recursive: true });
      writeFileSync(resolve(root, `build/zod-declarations/${entry.name}.d.ts`), declarations);
      declarations = plainDeclarations(declarations, rolledUp);
    }
    for (const extension of ['d.ts', 'd.cts']) writeFileSync(resolve(root, `dist/${entry.name}.${extension}`), declarations);
  }
  const modelFile = resolve(tempFolder, `${reportName}.api.json`);
  const model = JSON.parse(readFileSync(modelFile, 'utf8'));
  typeOnlyModel(model, runtime);
  writeFileSync(modelFile, `${JSON.stringify(model, null, 2)}\n`);
  const report = typeOnlyReport(readFileSync(resolve(tempFolder, `${reportName}.api.md`), 'utf8'), runtime);
  const reportFile = resolve(reportFolder, `${reportName}.api.md`);
  const changed = !existsSync(reportFile) || readFileSync(reportFile, 'utf8').replace(/\r\n/g, '\n') !== report;
  if (changed && localBuild) writeFileSync(reportFile, report);
  if (!result.succeeded || (changed && !localBuild)) {
    failed = true;
    const why = changed && !localBuild ? 'the public API changed: run `npm run build` and commit docs/api/' : `${result.errorCount} errors, ${result.warningCount} warnings`;
    console.error(`api-report: ${entry.subpath}: ${why}`);
  }
}
if (!rollUp) rmSync(tempFolder, { recursive: true, force: true });
if (failed) process.exit(1);
console.log(`api-report: ${entries.length} entries ${localBuild ? 'written' : `match ${reportFolder === resolve(root, 'docs/api') ? 'docs/api/' : reportFolder}`}`);
