// Modules the SDK imports lazily, loaded before each test file runs: in vitest the first `import()` of a module also
// transforms it, which takes real time that fake timers do not move, so a fake-timer story would otherwise race the
// transform. The tracker has no lazily imported module any more (its flusher and start-up housekeeping load with
// it, DESIGN section 11); the ones left (web view, picker, SHA-256, lease lock) are awaited by the stories that use them.
export {};
