/**
 * Creator pickers created on several threads at once (csharp/PickerThreadsProbe.cs): each gets its own handle and
 * hears its own events. CreatorPicker's registry is changed on the calling thread (Create, Init and Dispose forget
 * them) and read on the main thread (events): unlocked, pickers created at once shared a handle or were lost.
 */
import { describe, expect, it } from 'vitest';
import { probeReport } from './mono-probe.js';

describe('Unity creator pickers created on several threads', () => {
  it('gives each picker its own handle, and each hears its own events once', () => {
    const report = probeReport<Record<string, unknown>>('PickerThreadsProbe', ['HandNative']);
    expect(report).toEqual({ created: 40_000, handles: 40_000, heardOnce: 40_000 });
  }, 120_000);
});
