// A game client: reads with the Client key, play time through the game server's relay (type-checked by `npm test`).
import { CampaignClient, PlaytimeTracker, type Platform } from 'game-campaign-sdk';

declare const platform: Platform; // from an adapter; createMemoryPlatform() from 'game-campaign-sdk/testing' in tests
declare const playerToken: string;

const client = new CampaignClient({ clientKey: 'ck_live:public-client-secret', environment: 'live' });

export async function showCreators(campaignId: string): Promise<string[]> {
  const creators = await client.campaigns.listCreators(campaignId);
  return creators.map((creator) => `${creator.creatorName} (${creator.creatorKey})`);
}

const tracker = new PlaytimeTracker({
  platform,
  userId: 'player-1',
  relay: { url: 'https://game.example/campaign', headers: async () => ({ authorization: `Bearer ${playerToken}` }) },
});
tracker.on('dropped', ({ sessionId, reason }) => console.warn('session not recorded', sessionId, reason));
tracker.on('error', (error) => console.warn('tracker', error));

export function onLevelStart(creatorKey: string): string {
  return tracker.start({ creatorKey, metadata: { level: 3 } });
}

export async function onLevelEnd(): Promise<void> {
  await tracker.stop();
}
