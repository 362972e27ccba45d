/**
 * The world of one story file: its sites (started with the file's games) and one Chromium for the whole file,
 * started before the first story and ended after the last.
 */
import { afterAll, beforeAll } from 'vitest';
import { launchChromiumOverCdp, startChromium, type CdpChromium, type StartedChromium } from './chromium-cdp.js';
import { startPortalSites, type GameSettings, type PortalSites, type SiteDomain } from './portal-sites.js';
import { connectRaw, type RawBrowser } from './raw-cdp.js';

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

/** The world of a story file that drives its tabs over the DevTools protocol alone (./raw-cdp.ts: tabs really hidden and shown). */
export interface RawPortalWorld {
  sites: PortalSites;
  raw: RawBrowser;
}

/** Registers the file's hooks for a {@link RawPortalWorld}: its sites (on `domain`), and a Chromium connected over raw CDP. */
export function rawPortalWorld(games: Record<string, GameSettings>, domain: SiteDomain = 'test'): RawPortalWorld {
  const world = {} as RawPortalWorld;
  let browser: StartedChromium | undefined;
  beforeAll(async () => {
    world.sites = await startPortalSites(games, domain);
    browser = await startChromium();
    world.raw = await connectRaw(browser.endpoint);
  });
  afterAll(async () => {
    world.raw?.close();
    await browser?.close();
    await world.sites?.close();
  });
  return world;
}
