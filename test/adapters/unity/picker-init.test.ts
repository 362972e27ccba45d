/**
 * A player switch (a second GameCampaign.Init) ends the last player's creator pickers on the C# side as on the
 * JavaScript side (jslib-picker.test.ts): the old picker's calls fail with ObjectDisposedException, as after
 * GameCampaign.Dispose, instead of reaching a disposed JavaScript picker that answers nothing (csharp/PickerInitProbe.cs).
 */
import { describe, expect, it } from 'vitest';
import { probeReport } from './mono-probe.js';

describe('Unity creator picker across a second Init', () => {
  it('forgets the pickers of the facade being replaced: their calls fail at once, their events go nowhere', () => {
    const report = probeReport<Record<string, unknown>>('PickerInitProbe', ['HandNative']);
    expect(report).toEqual({
      search: 'ObjectDisposedException',
      confirm: 'ObjectDisposedException',
      changesAfterInit: 0,
      methods: ['init', 'picker.open', 'init'],
    });
  }, 120_000);
});
