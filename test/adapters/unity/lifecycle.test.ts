/**
 * Unity's lifecycle (csharp/LifecycleProbe.cs on mono, the bridge driven by hand and continuations run frame by
 * frame as Unity's main thread runs them): Bridge.Call's Task always completes, one throwing handler does not stop
 * the others, the picker keeps changes that arrive before Create resumes, and a second Play mode session without a
 * domain reload starts from fresh statics (Unity calls the [RuntimeInitializeOnLoadMethod(SubsystemRegistration)]
 * methods; the probe calls them the same way).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { probeReport } from './mono-probe.js';

let report: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
beforeAll(() => {
  report = probeReport<typeof report>('LifecycleProbe', ['HandNative']);
});

describe('Unity lifecycle (C# on mono)', () => {
  it('completes every Bridge.Call Task and clears its pending entry, whatever is thrown', () => {
    const failed = (code: string, cause: string | null) => ({ completed: true, pending: 0, type: 'GameCampaignException', code, cause });
    expect(report['calls']).toEqual({
      unserializable: failed('VALIDATION_ERROR', 'ArgumentException'),
      nan: failed('VALIDATION_ERROR', 'ArgumentException'),
      selfHolding: failed('VALIDATION_ERROR', 'ArgumentException'),
      nativeThrows: failed('BRIDGE_ERROR', 'InvalidOperationException'),
      registerThrows: failed('BRIDGE_ERROR', 'EntryPointNotFoundException'),
      callsSent: 0,
    });
  });

  it('fails a call whose answer C# cannot read (nested deeper than Json.MaxDepth) with BRIDGE_ERROR, the others still waiting', () => {
    expect(report['unreadableAnswer']).toEqual({ code: 'BRIDGE_ERROR', cause: 'FormatException', otherWaiting: true, pending: 1 });
  });

  it('runs every handler of WebView.Closed and CreatorPicker.Changed when one throws, and logs the exception', () => {
    expect(report['handlersRan']).toEqual(['closed 1', 'closed 3', 'changed 1', 'changed 3']);
    expect(report['handlersLogged']).toBe(2);
  });

  it('keeps the picker changes that arrive between the answer and the frame that resumes Create', () => {
    expect(report['picker']).toEqual({
      sentHandle: true, // C# chooses the handle and registers it before sending picker.open
      changeAfterAnswer: 'loading=False creators=3',
      changeBeforeAnswer: 'loading=False creators=4',
      noChange: 'loading=True creators=0',
    });
  });

  it('starts a Play mode session without a domain reload from fresh statics', () => {
    expect(report['resetMethods']).toEqual(expect.arrayContaining(['Bridge.ResetForPlayMode', 'CreatorPicker.ResetForPlayMode', 'WebView.ResetForPlayMode']));
    expect(report['pendingBeforeReset']).toBeGreaterThan(0);
    expect(report['pendingAfterReset']).toBe(0);
    expect(report['oldNativeDisposed']).toBe(true);
    expect(report['nativeAfterReset']).toBe('ManagedNative'); // a new one, made on first use
    expect(report['oldPickerAfterReset']).toBe('disposed');
    expect(report['newPickerHandleDiffers']).toBe(true);
    // The last session's handlers are gone; the SDK's own dispatchers still deliver to the new session's.
    expect(report['afterReset']).toEqual(['new closed', 'new flushed 0']);
  });
});
