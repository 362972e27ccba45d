/**
 * Where this code runs. The single place core reads platform globals (through `globalThis`, by name):
 * `CampaignServer` must refuse to start inside a game client, where its Server key would ship to players.
 */

/** The game-client runtime detected, or undefined on a server runtime (Node, Bun, Deno, edge workers). */
export function detectClientRuntime(): 'browser' | 'cocos' | 'react-native' | undefined {
  const g = globalThis as Record<string, unknown>;
  const nav = g['navigator'] as { product?: unknown } | undefined;
  if (nav?.product === 'ReactNative') return 'react-native';
  if (typeof g['cc'] === 'object' && g['cc'] !== null) return 'cocos';
  if (typeof g['window'] === 'object' && typeof g['document'] === 'object') return 'browser';
  // A browser's web or service worker (no window): only browsers give workers importScripts, edge runtimes do not.
  if (typeof g['importScripts'] === 'function') return 'browser';
  return undefined;
}
