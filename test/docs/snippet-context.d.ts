/**
 * Names a guide's block marked `<!-- snippet: fragment: <reason> -->` may use without defining them: what the game or
 * its server already has. Every other block compiles without them, as copied into an empty project
 * (scripts/doc-snippets.mjs). Keep this short; a block that needs more should define it.
 */
import type { Platform } from 'game-campaign-sdk';

declare global {
  /** The game's own session token for its server. */
  const token: string;
  /** The player's id in the game. */
  const userId: string;
  /** A platform from an adapter (or `createMemoryPlatform()` in tests). */
  const platform: Platform;
  /** The raw body of an incoming webhook request, exactly as received. */
  const rawBody: string;
  /** An incoming request on the game server. */
  const req: { headers: Record<string, string | string[] | undefined> };
  /** The game's reward logic. */
  function grant(userId: string | undefined, reward: unknown): void;
}

