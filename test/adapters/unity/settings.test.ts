/**
 * The settings asset (Runtime/GameCampaignSettings.cs): a ScriptableObject holding the Client key, the relay and
 * the environment, and GameCampaignSettings.Init(userId), which sends the same init the options would
 * (csharp/SettingsProbe.cs on mono).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { probeReport } from './mono-probe.js';

let report: Record<string, unknown>;
beforeAll(() => {
  report = probeReport<typeof report>('SettingsProbe', ['HandNative']);
});

describe('GameCampaignSettings (the settings asset)', () => {
  it('initializes the SDK from the asset: trimmed key and relay, the environment, the tracker defaults, the player and headers', () => {
    expect(report['live']).toEqual({
      method: 'init',
      clientKey: 'ck_live:secret',
      userId: 'player-1',
      relay: { url: 'https://game.example/campaign', headers: { authorization: 'Bearer t' } },
      environment: 'live',
      tracker: { campaignId: 'cmp_spring_festival' },
    });
  });

  it('uses the base URL over the environment (the emulator), leaves empty fields out, and carries test mode', () => {
    expect(report['emulator']).toEqual({
      method: 'init',
      clientKey: 'ck:secret',
      userId: 'player-2',
      relay: { url: 'http://127.0.0.1:8788/campaign', headers: {} },
      environment: { baseUrl: 'http://127.0.0.1:8787' },
      tracker: { isTest: true },
    });
  });

  it('fails as Init does when the key is blank, and defaults to the sandbox', () => {
    expect(report['emptyKey']).toBe('VALIDATION_ERROR: GameCampaignOptions.ClientKey is required');
    expect(report['defaultEnvironment']).toBe('sandbox');
  });
});
