import ts from 'typescript';
import { defineConfig, type Plugin } from 'vitest/config';

/**
 * samples/cocos runs under test (test/adapters/cocos/sample.test.ts) with `@ccclass`/`@property` compiled as legacy
 * decorators, as Cocos Creator compiles them: Vite's own transform (oxc) emits an import of a helper package this
 * project does not install, so TypeScript compiles those files (their helpers inline).
 */
const cocosSample: Plugin = {
  name: 'cocos-sample-decorators',
  enforce: 'pre',
  transform(code, id) {
    if (!/\/samples\/cocos\/[^/]+\.ts$/.test(id)) return undefined;
    const { outputText, sourceMapText } = ts.transpileModule(code, {
      fileName: id,
      compilerOptions: { experimentalDecorators: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, sourceMap: true, useDefineForClassFields: false },
    });
    return { code: outputText, map: sourceMapText };
  },
};

export default defineConfig({
  plugins: [cocosSample],
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['test/setup/lazy-chunks.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits on real I/O (a child process, Chromium, a socket) in several tests; its 1 s default is a bound a
    // loaded 2-core CI machine can pass (279 ms measured at load 8-15). A bound, not a timed assertion: a poll that
    // succeeds returns at once, and only a failing one waits the whole 10 s.
    expect: { poll: { timeout: 10_000 } },
    reporters: ['default', 'json'],
    outputFile: { json: 'reports/vitest.json' },
  },
});
