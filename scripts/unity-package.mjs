#!/usr/bin/env node
// Writes the Unity package's generated files (run by `npm run build`, after the IIFE is built): the SDK as
// GameCampaign.jspre (scripts/unity-jspre.mjs), the package's LICENSE.md, CHANGELOG.md and "Third Party Notices.md"
// (scripts/unity-package-docs.mjs), then a `.meta` for every asset (scripts/unity-meta.mjs), removing any `.meta`
// whose asset is gone. test/adapters/unity/package-files.test.ts fails when the committed files differ.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderJspre, UNITY_JSPRE } from './unity-jspre.mjs';
import { presentMetas, renderMetas, UNITY_PACKAGE } from './unity-meta.mjs';
import { writeNotices, writeUnityCopies } from './unity-package-docs.mjs';

writeFileSync(UNITY_JSPRE, renderJspre());
writeNotices();
writeUnityCopies();
const metas = renderMetas(UNITY_PACKAGE);
for (const [path, text] of metas) writeFileSync(join(UNITY_PACKAGE, path), text);
for (const path of presentMetas(UNITY_PACKAGE)) if (!metas.has(path)) rmSync(join(UNITY_PACKAGE, path));
console.log(`unity-package: ${UNITY_JSPRE}, the package's documents and ${metas.size} .meta files written`);
