// The SDK's lazily imported modules, loaded before each test file runs. A game downloads such a chunk once; in
// vitest the first `import()` of a module also transforms it, which takes real time that fake timers do not
// move, so a fake-timer story would otherwise race the transform. Loaded here, a later `import()` resolves as a
// cached module does. The stories of a chunk that fails to load mock it (test/core/tracker/housekeeping.test.ts).
await import('../../core/tracker/housekeeping.js');
await import('../../core/tracker/flusher.js');
export {};
