/**
 * The package's optional peer ranges against what React Native apps have installed. npm 7 and later refuse to install
 * a package (ERESOLVE) when an optional peer the app already has is outside its range, so a range narrower than what
 * works keeps the guide's minimum versions out: Expo SDK 47 (the guide's minimum) to 52 bundle AsyncStorage 1.x,
 * Expo SDK 47 to 53 NetInfo 9 to 11, Expo SDK 47 react-native-webview 11 (each SDK's `expo/bundledNativeModules.json`).
 * AsyncStorage 1.17.3 and 1.23.1 with NetInfo 9.3.5 and 11.4.1 run on Hermes 0.12 in ./hermes/stories.test.ts
 * (`EXPO_APPS`: delivered once, killed and recovered, offline then online, background, dispose), with
 * react-native-get-random-values 1.8.0 and 1.11.0 (peer range `>=1`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const { peerDependencies: peers } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> };

/** Whether `version` is in `range`, a peer range of the forms used here: space-separated `>=x.y.z` and `<x.y.z` (missing parts 0). */
function satisfies(version: string, range: string): boolean {
  const parts = (text: string) => text.split('.').map(Number);
  const compare = (a: string, b: string) => {
    const [x, y] = [parts(a), parts(b)];
    for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
    return 0;
  };
  return range.split(' ').every((comparator) => {
    const [, op, bound] = /^(>=|<)(\d+(?:\.\d+){0,2})$/.exec(comparator) ?? [];
    if (!op || !bound) throw new Error(`unexpected peer range ${range}`);
    return op === '>=' ? compare(version, bound) >= 0 : compare(version, bound) < 0;
  });
}

/** What `npx expo install` puts in an app, per Expo SDK (the lowest version each `~` range admits). */
const EXPO_BUNDLED = {
  47: { 'react-native': '0.70.8', '@react-native-async-storage/async-storage': '1.17.3', '@react-native-community/netinfo': '9.3.5', 'react-native-webview': '11.23.1', 'react-native-get-random-values': '1.8.0' },
  52: { 'react-native': '0.76.9', '@react-native-async-storage/async-storage': '1.23.1', '@react-native-community/netinfo': '11.4.1', 'react-native-webview': '13.12.5' },
  53: { 'react-native': '0.79.6', '@react-native-async-storage/async-storage': '2.1.2', '@react-native-community/netinfo': '11.4.1', 'react-native-webview': '13.13.5' },
};

describe('optional peer ranges', () => {
  it.each(Object.entries(EXPO_BUNDLED))("admit every module Expo SDK %s bundles, so npm installs the SDK into such an app", (_sdk, modules) => {
    for (const [name, version] of Object.entries(modules)) expect({ name, version, fits: satisfies(version, peers[name]!) }).toEqual({ name, version, fits: true });
  });

  it('still refuse what does not work: AsyncStorage 4, React Native 0.69 (Hermes 0.11)', () => {
    expect(satisfies('4.0.0', peers['@react-native-async-storage/async-storage']!)).toBe(false);
    expect(satisfies('0.69.12', peers['react-native']!)).toBe(false);
  });
});
