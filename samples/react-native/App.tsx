/**
 * A React Native (or Expo) app that takes part in a creator campaign: a toy sign-in, then Play/Stop recording a
 * session (stored in AsyncStorage, paused in the background, sent when the network is back) and the campaign
 * page in an in-app web view. Guide: docs/guides/react-native.md.
 *
 * Type-checked in `npm test` (tsconfig.react-native.json) against the real react 19, react-native, async-storage,
 * NetInfo and react-native-webview types.
 *
 * Install: `npm install game-campaign-sdk @react-native-async-storage/async-storage react-native-get-random-values
 * @react-native-community/netinfo react-native-webview` (react-native-get-random-values@1 on React Native 0.70 to
 * 0.80; Expo: `npx expo install expo-crypto` and pass it as `modules.expoCrypto` instead of the random-values import).
 */
import 'react-native-get-random-values'; // first: installs crypto.getRandomValues, which Hermes lacks
import React, { useEffect, useState } from 'react';
import { AppState, BackHandler, Button, Linking, Platform, SafeAreaView, Text, View } from 'react-native';
// The module: with 3.x the SDK keeps its data in its own store, not in the app's legacy shared store.
import * as AsyncStorage from '@react-native-async-storage/async-storage';
import NetInfo from '@react-native-community/netinfo';
import { WebView } from 'react-native-webview';
import { createGameCampaign, createWebViewHost, type GameCampaign } from 'game-campaign-sdk/react-native';

/** `npm start`'s sample game server; the Android emulator reaches the computer's 127.0.0.1 as 10.0.2.2. */
const GAME_SERVER = Platform.OS === 'android' ? 'http://10.0.2.2:8788' : 'http://127.0.0.1:8788';
const CAMPAIGN_ID = 'cmp_spring_festival';
/** The read-only Client key: safe in an app (the Server key stays on the game server). */
const CLIENT_KEY = 'ck_sandbox_demo:cs_sandbox_demo_secret'; // the emulator's, as `npm start` prints it

/**
 * Renders the campaign page over the app (Android's back button closes it; a link to another site opens in the
 * browser); created once, outside any component.
 */
const webView = createWebViewHost({ React, WebView, BackHandler, Linking });

/** Your game's own sign-in; here the sample server's toy login, which gives any demo name a token. */
async function signIn(userId: string): Promise<{ userId: string; token: string }> {
  const response = await fetch(`${GAME_SERVER}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userId }) });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status}`);
  return response.json();
}

/** One SDK instance per signed-in player, disposed when the player changes or the app unmounts. */
function useGameCampaign(player: { userId: string; token: string } | undefined): GameCampaign | undefined {
  const [gc, setGc] = useState<GameCampaign>();
  useEffect(() => {
    if (!player) return;
    const created = createGameCampaign({
      clientKey: CLIENT_KEY,
      relay: { url: `${GAME_SERVER}/campaign`, headers: { authorization: `Bearer ${player.token}` } },
      userId: player.userId,
      modules: { AsyncStorage, AppState, NetInfo, Linking, WebView: webView },
    });
    setGc(created);
    return () => {
      setGc(undefined);
      void created.dispose(); // ends a running session; the queue stays stored for the next start
    };
  }, [player]);
  return gc;
}

export default function App() {
  const [player, setPlayer] = useState<{ userId: string; token: string }>();
  const [status, setStatus] = useState('Signing in…');
  const gc = useGameCampaign(player);

  useEffect(() => {
    signIn('player-1').then(setPlayer, (error: Error) => setStatus(error.message));
  }, []);

  useEffect(() => {
    if (!gc) return;
    setStatus('Ready');
    gc.tracker
      .on('session:start', () => setStatus('Playing…'))
      .on('session:end', ({ session, reason }) => setStatus(`Played ${session.durationSeconds} s (${reason}): queued`))
      .on('flushed', ({ results }) => setStatus(`Sent ${results.length} session(s)`))
      .on('dropped', ({ reason }) => setStatus(`A session was not recorded (${reason})`))
      .on('error', ({ kind, error }) => console.warn('campaign', kind, error));
  }, [gc]);

  const openCampaign = () => {
    gc?.webview.open({ campaignId: CAMPAIGN_ID, showCampaignDetail: true }).catch((error: Error) => setStatus(error.message));
  };

  return (
    <SafeAreaView style={{ flex: 1 }}>
      <View style={{ padding: 24, gap: 12 }}>
        <Text style={{ fontSize: 20 }}>Spring festival</Text>
        <Text>{status}</Text>
        <Button title="Play" disabled={!gc} onPress={() => gc?.tracker.start({ campaignId: CAMPAIGN_ID })} />
        <Button title="Stop" disabled={!gc} onPress={() => void gc?.tracker.stop()} />
        <Button title="Open campaign" disabled={!gc} onPress={openCampaign} />
      </View>
      {/* Last, so the web view covers the app while it is open. */}
      <webView.Host />
    </SafeAreaView>
  );
}
