/**
 * The story that proves a platform's lock within its JavaScript context (React Native, Cocos): a second SDK created
 * while the first still runs (Fast Refresh, a screen or scene mounted twice) must not take the first's running session
 * for a crashed one. Before those locks, the second sent it ended at its last checkpoint (45 s) and the first's whole
 * session (105 s) was then SKIPPED: 60 s of play lost.
 */
import { expect, vi } from 'vitest';
import type { GameCampaign } from '../../core/game-campaign.js';

/** A relay that records the first copy of each session (its seconds by id), as the service does (a later copy: SKIPPED). */
export const firstCopyService = (recorded: Map<string, number>) => async (request: Request) => {
  const { sessions } = (await request.json()) as { sessions: Array<{ sessionId: string; durationSeconds: number }> };
  const results = sessions.map(({ sessionId, durationSeconds }) => {
    const status = recorded.has(sessionId) ? 'SKIPPED' : 'SUCCESS';
    if (status === 'SUCCESS') recorded.set(sessionId, durationSeconds);
    return { sessionId, status };
  });
  return new Response(JSON.stringify({ data: { results } }));
};

/**
 * Plays the story under fake timers (the caller installs them): the first SDK plays 45 s, a second is created and both
 * play 60 s more; each session must be recorded whole, once, in `recorded` (filled by {@link firstCopyService}).
 * Each SDK's start-up (where the second recovers what it takes for crashed) is awaited through `flush()` before play
 * goes on: a start-up may wait for a module import (WeChat's storage code, ./wechat.ts), which fake timers do not wait
 * for, so 45 s passed before the first had started up, both start-ups then ran together, and the story passed on the
 * WeChat fake even without the lock.
 */
export async function secondSdkWhileFirstRuns(create: () => GameCampaign, recorded: Map<string, number>): Promise<void> {
  const first = create();
  await first.tracker.flush();
  const firstId = first.tracker.start({ campaignId: 'spring' });
  await vi.advanceTimersByTimeAsync(45_000);
  const second = create();
  await second.tracker.flush();
  const secondId = second.tracker.start({ campaignId: 'spring' });
  await vi.advanceTimersByTimeAsync(60_000);
  await first.tracker.stop();
  await second.tracker.stop();
  await first.tracker.flush();
  await second.tracker.flush();
  expect(Object.fromEntries(recorded)).toEqual({ [firstId]: 105, [secondId]: 60 });
  await first.dispose();
  await second.dispose();
}
