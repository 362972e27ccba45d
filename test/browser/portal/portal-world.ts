/**
 * The world of one story file: its sites (started with the file's games) and one Chromium for the whole file,
 * started before the first story and ended after the last.
 */
import { afterAll, beforeAll } from 'vitest';
import { launchChromiumOverCdp, type CdpChromium } from './chromium-cdp.js';
import { startPortalSites, type GameSettings, type PortalSites, type SiteDomain } from './portal-sites.js';

/** Filled in before the file's first story runs. */
export interface PortalWorld {
  chromium: CdpChromium;
  sites: PortalSites;
}

/** Registers the file's hooks; call it at the top of the file's `describe`. */
export function portalWorld(games: Record<string, GameSettings>, domain: SiteDomain = 'test'): PortalWorld {
  const world = {} as PortalWorld;
  beforeAll(async () => {
    world.sites = await startPortalSites(games, domain);
    world.chromium = await launchChromiumOverCdp();
  });
  afterAll(async () => {
    await world.chromium?.close();
    await world.sites?.close();
  });
  return world;
}
