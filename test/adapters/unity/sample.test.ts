/**
 * The package's Basic sample as a game copies it: its component subscribes to the tracker's static events in Start
 * and unsubscribes in OnDestroy, so a scene loaded again and again neither piles up handlers nor keeps its destroyed
 * copies alive (csharp/SampleProbe.cs on mono, the bridge answered by hand).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csFiles, probeReport } from './mono-probe.js';

interface Report {
  loads: Array<{ afterStart: Record<string, number>; afterDestroy: Record<string, number> }>;
}

describe('Unity Basic sample', () => {
  it('leaves no handler on the tracker events once destroyed, however often its scene loads', () => {
    const samples = csFiles(join(import.meta.dirname, '../../../adapters/unity/Samples~'));
    const report = probeReport<Report>('SampleProbe', ['HandNative'], samples);
    const none = { SessionStarted: 0, SessionEnded: 0, Flushed: 0, Dropped: 0, Error: 0 };
    const subscribed = { ...none, Flushed: 1, Dropped: 1, Error: 1 };
    expect(report.loads).toEqual([1, 2, 3].map(() => ({ afterStart: subscribed, afterDestroy: none })));
  }, 120_000);
});
