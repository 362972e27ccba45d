/**
 * Names the guides' code blocks use without defining them: what the game or its server already has. Keep this
 * short; a block that needs more should define it.
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
  /** Bun's globals, as far as the relay guide uses them (bun-types in a Bun project). */
  /** bun-types' `Server`, as far as the guides use it (`fetch(request, server)` is handed it). */
  interface BunServer {
    requestIP(request: Request): { address: string; port: number } | null;
  }
  const Bun: {
    env: Record<string, string | undefined>;
    serve(options: { port?: number; fetch(request: Request, server: BunServer): Response | Promise<Response> }): BunServer;
  };
  /** Deno's globals, as far as the relay guide uses them. */
  const Deno: {
    env: { get(name: string): string | undefined };
    serve(options: { port?: number }, handler: (request: Request, info: { remoteAddr: { hostname: string; port: number } }) => Response | Promise<Response>): unknown;
  };
}

