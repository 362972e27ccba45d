/**
 * Whose storage a game's sessions live in, in Chromium with its defaults: two games on one origin (as itch.io
 * serves every HTML game from one host, and studios host several games on theirs), each with its own Client key,
 * relay and service; and one game embedded by two portals, where Chromium partitions the game frame's storage by
 * the portal's site. A crashed game leaves only its running record (checkpointed each second here), which the
 * next start of the same game on the same portal recovers; nothing else may read, send or recover it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import {
  closeTab,
  crashGame,
  expectPlayTime,
  flushNow,
  gameLog,
  openPortal,
  playALevel,
  playFor,
  type PortalTab,
  pressPlay,
  untilCount,
} from './portal-player.js';
import type { Site, StudioGame } from './portal-sites.js';
import { portalWorld } from './portal-world.js';

/** The SDK's default lease where Web Locks are missing (adapters/browser/lease-lock.ts). */
const LEASE_MS = 10_000;

describe.runIf(chromiumAvailable())('portal play in Chromium: whose storage', { timeout: 120_000 }, () => {
  const world = portalWorld({ alpha: { checkpointMs: 1_000 }, beta: { checkpointMs: 1_000 } });
  let alpha: StudioGame;
  let beta: StudioGame;
  const ids = (sessions: Array<{ sessionId: string }>) => sessions.map((session) => session.sessionId).sort();
  beforeAll(() => {
    alpha = world.sites.games['alpha']!;
    beta = world.sites.games['beta']!;
  });

  /** A level played and sent (see playALevel), then the tab closed: the session, its play time, what went wrong. */
  async function levelThenClose(tab: PortalTab, ms: number) {
    const level = await playALevel(tab, ms);
    const problems = (await gameLog(tab.page)).filter((message) => message.type === 'error' || message.type === 'thrown' || message.type === 'dropped');
    await closeTab(world.chromium.context, tab.page);
    return { ...level, problems };
  }

  /** The game's frame under `portal` reads, then writes, a marker in an IndexedDB database of its own. */
  async function partitionMarker(portal: Site): Promise<string | undefined> {
    const tab = await openPortal(world.chromium.context, world.sites, { portal, game: 'alpha', player: 'marker' });
    const before = await tab.game.evaluate(
      (portal) =>
        new Promise<string | undefined>((resolve, reject) => {
          const open = indexedDB.open('partition-check');
          open.onupgradeneeded = () => open.result.createObjectStore('marks');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const store = open.result.transaction('marks', 'readwrite').objectStore('marks');
            const read = store.get('first-portal');
            read.onsuccess = () => {
              if (read.result === undefined) store.put(portal, 'first-portal');
              store.transaction.oncomplete = () => (open.result.close(), resolve(read.result as string | undefined));
            };
          };
        }),
      portal
    );
    const cdp = await world.chromium.context.newCDPSession(tab.game);
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const { storageKey } = (await cdp.send('Storage.getStorageKey' as 'Storage.getStorageKeyForFrame', { frameId: frameTree.frame.id })) as {
      storageKey: string;
    };
    expect(storageKey).toBe(`${world.sites.origin('cdn')}/^0${world.sites.origin(portal).replace(/:\d+$/, '')}`);
    await closeTab(world.chromium.context, tab.page);
    return before;
  }

  it('Chromium partitions the game frame’s storage by the portal’s site (the stories below rely on it)', async () => {
    expect(await partitionMarker('portal')).toBeUndefined();
    expect(await partitionMarker('arcade')).toBeUndefined(); // the same game, another portal: another IndexedDB
    expect(await partitionMarker('portal')).toBe('portal');
  });

  it('two games on one origin, each with its own Client key: each service records only its own game’s sessions, a crashed session included', async () => {
    const player = 'plays-both';
    // Game alpha is played, then its frame crashes: only its running record is left, in cdn.test's storage.
    const alphaTab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    const crashed = await pressPlay(alphaTab.game);
    await playFor(alphaTab.page, 2_600);
    await crashGame(world.chromium.context, alphaTab);

    // Game beta, same origin and player: it starts up on that storage and plays a level longer than the crashed
    // frame's lease (plain http has no Web Locks: a crashed owner's lease in IndexedDB runs out after
    // LEASE_MS), so a tracker that saw alpha's running record would have recovered it by the level's end.
    const betaLevel = await levelThenClose(await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'beta', player }), LEASE_MS + 1_500);
    await untilCount(() => beta.recorded(player).length, 1);
    expect(betaLevel.problems).toEqual([]);
    expectPlayTime(beta.recorded(player)[0]!.durationSeconds, betaLevel.played);

    // Game alpha again: it recovers its own crashed session (ended at its last checkpoint) through its own relay.
    const again = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    await untilCount(() => alpha.recorded(player).length, 1);
    await flushNow(again.game);
    await closeTab(world.chromium.context, again.page);
    expect(ids(alpha.recorded(player))).toEqual([crashed.sessionId]);
    expect(alpha.recorded(player)[0]!.durationSeconds).toBeGreaterThanOrEqual(1);
    expect(alpha.recorded(player)[0]!.durationSeconds).toBeLessThanOrEqual(3);
    expect(ids(beta.recorded(player))).toEqual([betaLevel.sessionId]);
    // Neither relay ever carried the other game's session (nor did the other service's credentials).
    expect(beta.received).not.toContain(crashed.sessionId);
    expect(alpha.received).not.toContain(betaLevel.sessionId);
  });

  it('two portals embedding one game: a session left under one portal is recovered only there, and each portal’s sessions are recorded once', async () => {
    const player = 'two-portals';
    const onPortal = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    const crashed = await pressPlay(onPortal.game);
    await playFor(onPortal.page, 2_600);
    await crashGame(world.chromium.context, onPortal);

    // The same game on another portal cannot see the first portal's partition: it plays and sends its own level only.
    const arcadeLevel = await levelThenClose(await openPortal(world.chromium.context, world.sites, { portal: 'arcade', game: 'alpha', player }), 2_100);
    await untilCount(() => alpha.recorded(player).length, 1);
    expect(arcadeLevel.problems).toEqual([]);
    expect(ids(alpha.recorded(player))).toEqual([arcadeLevel.sessionId]);
    expect(alpha.received).not.toContain(crashed.sessionId);

    // Back on the first portal: its own storage still holds the crashed session, recovered and sent now.
    const back = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    await untilCount(() => alpha.recorded(player).length, 2);
    await flushNow(back.game);
    await closeTab(world.chromium.context, back.page);
    expect(ids(alpha.recorded(player))).toEqual([crashed.sessionId, arcadeLevel.sessionId].sort());
    expect(alpha.recorded(player).find((session) => session.sessionId === crashed.sessionId)!.durationSeconds).toBeGreaterThanOrEqual(1);
    // Each portal's frame sent its own session once; neither ever sent the other's.
    expect(alpha.received.filter((id) => id === arcadeLevel.sessionId)).toHaveLength(1);
    expect(alpha.received.filter((id) => id === crashed.sessionId)).toHaveLength(1);
  });
});
