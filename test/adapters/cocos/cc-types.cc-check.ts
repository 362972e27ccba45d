/**
 * Type-checked against @cocos/creator-types 3.8 by `npm run typecheck` (tsconfig.cocos.json), never run:
 * the engine's own `sys`, `game`, `Game` and `WebView` must fit what the Cocos adapter takes, so a game
 * passes them without a cast and a change in the engine's types fails our build.
 */
import { Game, game, Node, sys, WebView } from 'cc';
import { createCocosPlatform, createGameCampaign, type CocosModules, type CocosWebViewFactory } from '../../../adapters/cocos/index.js';

export const modules: CocosModules = { sys, game, Game };

export const webView: CocosWebViewFactory = (url) => {
  const view: WebView = new Node('campaign-web-view').addComponent(WebView);
  view.url = url;
  return view;
};

export const start = () => createCocosPlatform({ cc: { sys, game, Game }, webView });

export const startGame = () => createGameCampaign({ cc: { sys, game, Game }, webView, clientKey: 'ck_key:secret', relay: { url: 'https://game.example/campaign' }, userId: 'player-1' });
