/**
 * A Unity WebGL page for the tests: the SDK global from the package's .jspre (see game-campaign-global.ts) over an in-process relay and
 * emulator, and the jslib in a fake Unity runtime. The relay's `authenticate` takes the bearer token as the
 * user id (a stand-in for the game's own sessions).
 */
import { join } from 'node:path';
import { createRelay } from '../../../core/relay/index.js';
import { CampaignServer } from '../../../core/server/index.js';
import { createEmulator, type Emulator } from '../../../emulator/index.js';
import { createFakeUnityRuntime, type DynCallStyle } from './fake-unity-runtime.js';
import { loadGameCampaignGlobal } from './game-campaign-global.js';

export const JSLIB = join(import.meta.dirname, '../../../adapters/unity/Runtime/Plugins/WebGL/GameCampaign.jslib');
export const API = 'http://emulator.local';
export const RELAY = 'http://game.local/campaign';

/** The page, over the package's GameCampaign.jspre; `close()` it after the test. `GAME_CAMPAIGN_IIFE` runs the suite over an IIFE build instead. */
export function createBridgePage(dynCall: DynCallStyle = 'table', iifeFile = process.env['GAME_CAMPAIGN_IIFE']) {
  const emulator: Emulator = createEmulator();
  const server = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: API }, fetch: emulator.fetch, maxRetries: 0 });
  const relay = createRelay({ server, authenticate: (request) => ({ userId: (request.headers.get('authorization') ?? '').replace(/^Bearer /, '') }) });
  const fetch = (input: string | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    return request.url.startsWith(RELAY) ? relay.fetch(request) : emulator.fetch(request);
  };
  const loaded = loadGameCampaignGlobal({ fetch, ...(iifeFile ? { file: iifeFile } : {}) });
  const unity = createFakeUnityRuntime({ jslibPath: JSLIB, window: loaded.window, dynCall });
  const initOptions = (userId: string) => ({ clientKey: emulator.clientKey, userId, environment: { baseUrl: API }, relay: { url: RELAY, headers: { authorization: `Bearer ${userId}` } } });
  const close = async () => {
    await emulator.close();
    await loaded.close();
  };
  return { emulator, unity, initOptions, close, window: loaded.window };
}
