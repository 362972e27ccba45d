/**
 * The Unity package's C# compiled with Debian's mcs (mono-mcs, installed by .ci/run) against the UnityEngine
 * stub in stubs/, warnings as errors, for the Editor/other platforms and for the WebGL player; then run on
 * mono against answers the jslib really produced (so JSON -> typed C# objects and exceptions is proven).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ACTIVE_CAMPAIGN_ID, DEMO_USERS } from '../../../emulator/index.js';
import { createBridgePage } from './bridge-page.js';
import type { Envelope } from './fake-unity-runtime.js';
import { runProbe } from './mono-probe.js';

const ROOT = join(import.meta.dirname, '../../..');
const PACKAGE = join(ROOT, 'adapters/unity');
const STUBS = csFilesIn(join(import.meta.dirname, 'stubs'));
const PROBE = join(import.meta.dirname, 'csharp/BridgeProbe.cs');
const work = mkdtempSync(join(tmpdir(), 'unity-cs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function csFilesIn(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.cs')).map((name) => join(dir, name));
}

function csFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.cs'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** mcs with warnings as errors; returns its output, throws with it on failure. */
function mcs(args: string[]): string {
  try {
    return execFileSync('mcs', ['-warnaserror+', '-warn:4', '-langversion:7', ...args], { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`mcs failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

const runtime = () => csFiles(join(PACKAGE, 'Runtime'));
const samples = () => csFiles(join(PACKAGE, 'Samples~'));

describe('Unity C# (mcs)', () => {
  it('compiles for the Editor and other platforms, and for the WebGL player, warnings as errors', () => {
    expect(runtime().length).toBeGreaterThan(5);
    expect(samples().length).toBeGreaterThan(0);
    mcs(['-target:library', `-out:${join(work, 'editor.dll')}`, ...runtime(), ...samples(), ...STUBS]);
    mcs(['-target:library', '-define:UNITY_WEBGL', `-out:${join(work, 'webgl.dll')}`, ...runtime(), ...samples(), ...STUBS]);
  });

  it('marks every method the WebGL player calls back through a function pointer [MonoPInvokeCallback], static, and uses no reflection', () => {
    const source = runtime().map((file) => readFileSync(file, 'utf8')).join('\n');
    const delegates = [...source.matchAll(/public delegate \w+ (\w+)\(/g)].map((match) => match[1]!);
    expect(delegates).toEqual(['MessageCallback']);
    // Every delegate instance handed to JavaScript is made from a method group: each such method needs the attribute.
    const bound = [...source.matchAll(new RegExp(`(?:${delegates.join('|')}) \\w+ = (\\w+);`, 'g'))].map((match) => match[1]!);
    expect(bound).toEqual(['OnMessage']);
    for (const method of bound) {
      expect(source).toMatch(new RegExp(`\\[MonoPInvokeCallback\\(typeof\\((?:${delegates.join('|')})\\)\\)\\]\\s+internal static void ${method}\\(`));
    }
    // No reflection for IL2CPP's managed stripping to miss (so no link.xml).
    expect(source.replace(/\/\/.*$/gm, '')).not.toMatch(/System\.Reflection|Activator\.|\.GetMethod\(|\.GetField\(|\.GetProperty\(|Type\.GetType\(|SHA256\.Create\(|RandomNumberGenerator\.Create\(/);
  });

  it('fails on a warning (the check can fail)', () => {
    const typo = join(work, 'Typo.cs');
    writeFileSync(typo, 'namespace GameCampaignSdk { internal static class Typo { internal static int Value() { int unused = 1; return 2; } } }\n');
    expect(() => mcs(['-target:library', `-out:${join(work, 'typo.dll')}`, ...runtime(), ...STUBS, typo])).toThrow(/CS0219/);
  });

  it('turns what the jslib sends into typed C# results, events and exceptions', async () => {
    // What the jslib answers, over the real IIFE, relay and emulator.
    const page = createBridgePage();
    try {
      const { unity, initOptions } = page;
      const answers: Record<string, Envelope> = {};
      answers['init'] = await unity.request('init', initOptions(DEMO_USERS.inCooldown));
      answers['tracker.start'] = await unity.request('tracker.start', { campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
      answers['creators.search'] = await unity.request('creators.search', { query: 'Luna', limit: 5 });
      answers['campaigns.get'] = await unity.request('campaigns.get', { campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
      answers['boost.change'] = await unity.request('boost.change', { newCreatorKey: 'NOVA1', campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
      const sessionId = answers['tracker.start']['value'] as string;
      const events = [
        { event: 'flushed', data: { results: [{ sessionId, status: 'SUCCESS' }] } },
        { event: 'dropped', data: { sessionId: 'other', reason: 'too-short' } },
      ];
      // Picker envelopes as jslib-picker.test.ts shows the jslib sending them.
      const creators = answers['creators.search']['value'] as unknown[];
      answers['picker.open'] = { ok: true, value: { picker: 1, state: { creators, loading: true, query: '', searching: false, canConfirm: false, confirming: false } } };
      const cooldown = { name: 'BoostCooldownError', code: 'BAD_REQUEST', status: 400, message: 'Boost can be changed again in 20 days', daysRemaining: 20 };
      const pickerEvents = [
        { event: 'picker:change', picker: 1, data: { creators, loading: false, query: '', searching: false, canConfirm: true, confirming: false, selected: 'NOVA1' } },
        { event: 'picker:change', picker: 2, data: { creators: [], loading: false, query: '', searching: false, canConfirm: false, confirming: false } },
        { event: 'picker:change', picker: 1, data: { creators, loading: false, query: '', searching: false, canConfirm: false, confirming: false, selected: 'NOVA1', cooldownDays: 20, error: cooldown } },
      ];
      const input = join(work, 'answers.json');
      writeFileSync(input, JSON.stringify({ answers, events, pickerEvents }));

      const exe = join(work, 'probe.exe');
      mcs(['-target:exe', `-out:${exe}`, ...runtime(), ...STUBS, PROBE]);
      const report = JSON.parse(runProbe(exe, [input])) as Record<string, unknown>;

      // Outside WebGL the C# implementation answers (editor.test.ts runs it against the emulator and a relay).
      expect(report['supported']).toBe(true);
      expect(report['editor']).toMatchObject({ type: 'GameCampaignException', code: 'NOT_INITIALIZED' });
      expect(report['disposeBeforeInit']).toBe('no error'); // completed: disposing is idempotent
      expect(report['invalidOptions']).toMatchObject({ type: 'GameCampaignException', code: 'VALIDATION_ERROR', message: expect.stringContaining('ClientKey') });
      expect(report['sessionId']).toBe(sessionId);
      expect(report['flushed']).toEqual([`SUCCESS ${sessionId}`]);
      expect(report['loggedExceptions']).toBe(1); // the throwing Dropped handler: logged, not thrown into JavaScript
      expect(report['search']).toEqual(['LUNA7 Luna Plays 1']);
      expect(report['campaign']).toMatch(new RegExp(`^${DEMO_ACTIVE_CAMPAIGN_ID} \\S`));
      expect(report['cooldown']).toEqual({
        type: 'GameCampaignException',
        name: 'BoostCooldownError',
        code: 'BAD_REQUEST',
        status: 400,
        daysRemaining: 20,
        isBoostCooldown: true,
        message: 'Boost can be changed again in 20 days',
      });
      expect(report['pickerFirst']).toBe("1 creators, query ''");
      expect(report['pickerStates']).toEqual(['NOVA1 canConfirm=True cooldown= error=none', 'NOVA1 canConfirm=False cooldown=20 error=BoostCooldownError']);
      expect(report['pending']).toBe(0);
      // C# sends the arguments the jslib reads.
      expect(report['sent']).toEqual([
        { method: 'init', args: { clientKey: 'ck:secret', userId: 'player-1', relay: { url: 'http://game.local/campaign', headers: {} }, environment: { baseUrl: 'http://emulator.local' } } },
        { method: 'tracker.start', args: { campaignId: DEMO_ACTIVE_CAMPAIGN_ID } },
        { method: 'creators.search', args: { query: 'Luna', limit: 5 } },
        { method: 'campaigns.get', args: { campaignId: DEMO_ACTIVE_CAMPAIGN_ID } },
        { method: 'boost.change', args: { newCreatorKey: 'NOVA1', campaignId: DEMO_ACTIVE_CAMPAIGN_ID } },
        { method: 'picker.open', args: { picker: 1, campaignId: DEMO_ACTIVE_CAMPAIGN_ID } }, // the handle C# chose and registered first
      ]);
    } finally {
      await page.close();
    }
  });
});
