/**
 * A Cocos Creator 3.8 component that takes part in a creator campaign: it creates the SDK once the engine has
 * started, records a play session between the Play and Stop buttons, opens the campaign page in a WebView
 * and frees everything when its node is destroyed. Works on web, native (iOS, Android) and WeChat or Douyin mini-game
 * builds (there, without the web view). It signs the player in at the game server first (`npm start`'s toy login),
 * since the relay takes only a signed-in player's sessions. On native it reads random bytes through a bridge your
 * project adds (`SecureRandomBridge`, docs/guides/cocos.md "Random bytes on native"): without it the campaign page
 * cannot open (its PKCE needs random bytes) and the tracker reports an `error` of kind `crypto` as each session
 * starts. Guide: docs/guides/cocos.md.
 *
 * Use: copy this file and `npm install game-campaign-sdk` into your Cocos project, add the component to a node
 * of the scene, and drag the buttons and the label onto its properties in the Inspector. The relay is your game
 * server's `createRelay` mount: here `npm start`'s game server at 127.0.0.1:8788/campaign, whose toy `/login` the
 * component calls first and which answers the editor's browser preview at http://localhost:7456 across origins (CORS
 * on its login and relay). A relay of your own (samples/node-relay has no `/login`) takes your game's sign-in in
 * `signIn`'s place.
 *
 * Type-checked against @cocos/creator-types 3.8 by `npx tsc -p tsconfig.cocos.json` (part of `npm test`).
 */
import { _decorator, Button, Component, director, Game, game, Label, native, Node, sys, WebView, Widget } from 'cc';
import { createGameCampaign, RequestBlockedError, type WechatApi } from 'game-campaign-sdk/cocos';

const { ccclass, property } = _decorator;

/**
 * The global `wx`: WeChat's mini-game API in a mini-game build, but also `jWeixin` (the JS-SDK) when the web build
 * runs in WeChat's browser. The SDK takes the WeChat runtime only for the mini-game API, so passing it is safe.
 */
const wechat = (globalThis as { wx?: WechatApi }).wx;
/** Douyin's mini-game API (`tt`), passed as `wx` in a ByteDance build: the same calls (docs/guides/cocos.md). */
const douyin = (globalThis as { tt?: WechatApi }).tt;

@ccclass('CampaignComponent')
export class CampaignComponent extends Component {
  @property(Button) playButton: Button | null = null;
  @property(Button) stopButton: Button | null = null;
  @property(Button) campaignButton: Button | null = null;
  @property(Label) statusLabel: Label | null = null;

  /** The read-only Client key: safe in a game build (the Server key stays on the game server). */
  @property clientKey = 'ck_sandbox_demo:cs_sandbox_demo_secret'; // the emulator's, as `npm start` prints it
  /** Your game server's relay. */
  @property relayUrl = 'http://127.0.0.1:8788/campaign';
  @property campaignId = 'cmp_spring_festival';

  /**
   * Your game's own sign-in, which gives the player a session token: the relay trusts only the token. Here
   * `npm start`'s toy login: `POST /login` with `{"userId":"player-1"}` answers `{ token }` for any demo name.
   */
  @property loginUrl = 'http://127.0.0.1:8788/login';
  /** The signed-in player (your game's own account id). */
  @property userId = 'player-1';

  private gc: ReturnType<typeof createGameCampaign> | undefined;
  /** The session token, once asked for; dropped when it fails or the relay refuses it, so the next flush signs in again. */
  private token: Promise<string> | undefined;

  protected override start(): void {
    // Not before start(): `sys.localStorage` is an empty object until the engine has started.
    const gc = createGameCampaign({
      cc: { sys, game, Game },
      wx: sys.platform === sys.Platform.BYTEDANCE_MINI_GAME ? douyin : wechat,
      clientKey: this.clientKey,
      // Asked before each delivery: the first signs in. Until it succeeds the sessions wait on the device.
      relay: { url: this.relayUrl, headers: async () => ({ authorization: `Bearer ${await this.signIn()}` }) },
      userId: this.userId,
      webView: (url) => this.createWebView(url),
      getRandomValues: sys.isNative && (sys.os === sys.OS.ANDROID || sys.os === sys.OS.IOS) ? nativeRandomValues : undefined,
    });
    this.gc = gc;
    gc.tracker.on('session:start', () => this.show('Playing…'));
    gc.tracker.on('session:end', ({ session }) => this.show(`Played ${session.durationSeconds} s: queued`));
    gc.tracker.on('flushed', ({ results }) => this.show(`Sent ${results.length} session(s)`));
    gc.tracker.on('dropped', ({ reason }) => this.show(`A session was not recorded (${reason})`));
    gc.tracker.on('error', ({ kind, error }) => {
      console.warn('campaign', kind, error);
      // The relay refused the token (the game server restarted, the token expired): sign in again at the next flush.
      if (kind === 'auth') this.token = undefined;
      // WeChat refuses hosts off the mini-game's request domain list: sessions stay queued until the relay's host is added.
      if (error instanceof RequestBlockedError) this.show(error.message);
    });

    this.playButton?.node.on(Button.EventType.CLICK, this.play, this);
    this.stopButton?.node.on(Button.EventType.CLICK, this.stop, this);
    this.campaignButton?.node.on(Button.EventType.CLICK, this.openCampaign, this);
  }

  play(): void {
    this.gc?.tracker.start({ campaignId: this.campaignId });
  }

  stop(): void {
    // Stopping queues the session on the device; the tracker delivers it (now, or when the network returns).
    void this.gc?.tracker.stop();
  }

  openCampaign(): void {
    // Rejects with WebViewUnavailableError on WeChat mini-games, which have no web view.
    this.gc?.webview.open({ campaignId: this.campaignId, showCampaignDetail: true }).catch((error: Error) => this.show(error.message));
  }

  protected override onDestroy(): void {
    this.playButton?.node.off(Button.EventType.CLICK, this.play, this);
    this.stopButton?.node.off(Button.EventType.CLICK, this.stop, this);
    this.campaignButton?.node.off(Button.EventType.CLICK, this.openCampaign, this);
    // Ends a running session, keeps the queue stored for the next run, and stops timers and listeners.
    void this.gc?.dispose();
    this.gc = undefined;
  }

  /**
   * Signs the player in once, through the SDK's fetch (a WeChat mini-game has no global `fetch`; the SDK's is its
   * `wx.request` one, so the login host goes on the same request domain list as the relay).
   */
  private signIn(): Promise<string> {
    if (!this.token) {
      const body = JSON.stringify({ userId: this.userId });
      this.token = this.gc!.platform.fetch(this.loginUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (response) => {
        if (!response.ok) throw new Error(`sign-in at ${this.loginUrl} failed: ${response.status}`);
        return ((await response.json()) as { token: string }).token;
      });
      this.token.catch(() => (this.token = undefined));
    }
    return this.token;
  }

  /** A full-screen WebView over the scene; the adapter sets its url and destroys the node on close. */
  private createWebView(url: string): WebView {
    const node = new Node('campaign-web-view');
    const widget = node.addComponent(Widget);
    widget.isAlignTop = widget.isAlignBottom = widget.isAlignLeft = widget.isAlignRight = true;
    widget.top = widget.bottom = widget.left = widget.right = 0;
    const scene = director.getScene()!;
    (scene.getChildByName('Canvas') ?? scene).addChild(node); // UI renders under a Canvas
    return node.addComponent(WebView);
  }

  private show(text: string): void {
    if (this.statusLabel) this.statusLabel.string = text;
  }
}

/**
 * Secure random bytes on native (Cocos native has no WebCrypto), from the static method `SecureRandomBridge.hex`
 * your project adds (Java on Android, Objective-C on iOS: docs/guides/cocos.md, "Random bytes on native"), which
 * answers `n` bytes from the OS's secure random as hex. Throws when the bridge answers anything else: the SDK then
 * reports an `error` of kind `crypto`, never weaker bytes.
 */
function nativeRandomValues<T extends ArrayBufferView | null>(array: T): T {
  if (!array) return array;
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  const hex: unknown =
    sys.os === sys.OS.ANDROID
      ? native.reflection.callStaticMethod('com/cocos/game/SecureRandomBridge', 'hex', '(I)Ljava/lang/String;', bytes.length)
      : native.reflection.callStaticMethod('SecureRandomBridge', 'hex:', String(bytes.length)); // iOS: the arguments follow the method name
  if (typeof hex !== 'string' || !new RegExp(`^[0-9a-f]{${bytes.length * 2}}$`).test(hex)) throw new Error('SecureRandomBridge.hex answered no random bytes');
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return array;
}
