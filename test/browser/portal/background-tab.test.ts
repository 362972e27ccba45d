/**
 * A portal player opens the game in a background tab (a middle click on the portal's list, or the browser
 * restoring its tabs), in Chromium with its defaults: the page loads hidden (`Target.createTarget` with
 * `background`), and no event says so until it is shown. The game starts its session at load, as most do. Nothing
 * is played while the tab is behind: only the time in front counts (docs/guides/tracker.md, "A page that is left").
 * Before the change the tracker took a page loaded hidden for one in front: the hidden time was counted, and a tab
 * closed before it was ever shown sent nothing in its exit and left a session of hidden time for the next visit.
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { ARRIVAL, endPlay, expectPlayTime, untilCount } from './portal-player.js';
import { rawPortalWorld } from './portal-world.js';
import { told, type RawPortalTab } from './raw-cdp.js';

/** How long the tab stays behind: past the tracker's first checkpoint (1 s), which a hidden run would have stored. */
const HIDDEN_MS = 2_500;
/** Played in front: past the 1 s minimum session, short of the 15 s checkpoint. */
const PLAY_MS = 2_200;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(chromiumAvailable())('portal play in Chromium: a game opened in a background tab', { timeout: 60_000 }, () => {
  const world = rawPortalWorld({ alpha: {} });
  const visibility = (tab: RawPortalTab) => tab.evaluate<string>('game', 'document.visibilityState');

  it('loaded behind, played once shown, then closed: the session counts the time in front only, recorded once', async () => {
    const { raw, sites } = world;
    const alpha = sites.games['alpha']!;
    const player = 'background-tab-shown';
    const tab = await raw.openPortal(sites.portalUrl('portal', 'alpha', player), 'alpha', { background: true });
    expect(await visibility(tab)).toBe('hidden');
    const sessionId = await tab.evaluate<string>('game', 'window.play()'); // the game starts at load
    await wait(HIDDEN_MS);

    // The player brings the tab to the front and plays.
    const activatedAt = Date.now();
    await tab.activate();
    await expect.poll(() => visibility(tab), ARRIVAL).toBe('visible');
    const playing = { pressedAt: activatedAt, startedAt: Date.now() };
    await wait(PLAY_MS);
    const problems = (await tab.log()).filter((message) => ['error', 'thrown', 'dropped'].includes(message.type));
    expect(await told(tab, 'alpha', 'session:start')).toEqual([expect.objectContaining({ sessionId })]);
    const played = await endPlay(playing, () => tab.close());

    await untilCount(() => alpha.recorded(player).length, 1);
    const [session] = alpha.recorded(player);
    expect(session!.sessionId).toBe(sessionId);
    expectPlayTime(session!.durationSeconds, played); // before the change: the 2.5 s behind counted too
    expect(problems).toEqual([]);
  });

  it('loaded behind and closed before it was ever shown: nothing is recorded, and the next visit drops the unplayed session as too short', async () => {
    const { raw, sites } = world;
    const alpha = sites.games['alpha']!;
    const player = 'background-tab-never-shown';
    const tab = await raw.openPortal(sites.portalUrl('portal', 'alpha', player), 'alpha', { background: true });
    expect(await visibility(tab)).toBe('hidden');
    const sessionId = await tab.evaluate<string>('game', 'window.play()');
    await wait(HIDDEN_MS);
    await tab.close();

    // The next visit finds the session stored, unplayed: before the change it recovered 1 s or more of hidden time and sent it.
    const next = await raw.openPortal(sites.portalUrl('portal', 'alpha', player), 'alpha');
    await expect.poll(() => told(next, 'alpha', 'dropped'), ARRIVAL).toEqual([{ sessionId, reason: 'too-short' }]);
    await next.evaluate('game', 'gc.tracker.flush()');
    expect(alpha.recorded(player)).toEqual([]);
    expect(alpha.received).not.toContain(sessionId);
    await next.close();
  });
});
