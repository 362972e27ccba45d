/**
 * The web view host (createWebViewHost) over react-native-webview's real JavaScript, iOS and Android, rendered under
 * Node (real-webview.ts: the library's native parts stood in): 16.0.0, the newest 15.x, 14.x, 13.x and 12.x, 13.2.2
 * (Expo SDK 49's, still built as 12.x) and 11.23.1 (the oldest the guide names: what Expo SDK 47 installs). The props
 * the host passes are ones the component takes and hands on to its native view (checked against the view config of
 * those that have one in JavaScript), and the page's messages, navigations and failures arrive the way each version
 * delivers them from native code.
 */
import React from 'react';
import { describe, expect, it } from 'vitest';
import { createWebViewHost, WEBVIEW_CLOSE_MESSAGE } from '../../../adapters/react-native/index.js';
import { findAll, loadRealWebView, mount, shipsTscBuild, type HostNode, type ViewConfig, type WebViewVersion } from './real-webview.js';

const PAGE = 'https://campaign.example/webview?ott=ott-1#code_verifier=v';
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** What the native view takes (lib/RNCWebViewNativeComponent.js): its attributes and events, and style. */
const nativeProps = ({ validAttributes, directEventTypes }: ViewConfig) =>
  new Set([...Object.keys(validAttributes), ...Object.values(directEventTypes).map((event) => event.registrationName), 'style', 'ref', 'children']);

/** A game with the host rendered once (`<><Game /><webView.Host /></>`), over the real WebView of `os` and `version`. */
async function openOn(os: 'ios' | 'android', version: WebViewVersion) {
  const { WebView, native, viewConfig } = loadRealWebView(os, version);
  const Linking = { openURL: async (url: string) => void native.opened.push(`linking ${url}`) };
  const webView = createWebViewHost({ React, WebView, Linking });
  const app = mount(React.createElement(React.Fragment, null, React.createElement('Game'), React.createElement(webView.Host)));
  const handle = await webView.open(PAGE);
  await tick();
  const view = (): HostNode | undefined => findAll(app.root(), 'RNCWebView')[0];
  return { app, handle, view, native, viewConfig };
}

/** Each version run (package.json's exact-pinned npm aliases) and its number as installed. */
const versions = [
  ['16.0.0', '16'],
  ['15.0.0', '15'],
  ['14.0.1', '14'],
  ['13.17.0', '13'],
  ['13.2.2', '13.2'],
  ['12.4.0', '12'],
  ['11.23.1', '11'],
] as const;

describe.each(versions.flatMap(([label, version]) => (['ios', 'android'] as const).map((os) => [label, os, version] as const)))("the web view host on react-native-webview %s's own JavaScript (%s)", (_label, os, version) => {
  it('renders its native view with the page, messaging on, and nothing the native view does not take', async () => {
    const { app, view, viewConfig } = await openOn(os, version);
    const props = view()!.props;
    // 12.x renamed the native view's `source` to `newSource` (src/WebView.*.tsx; 12.4.0 read, 11.26.1 has none).
    expect(props[version === '11' ? 'source' : 'newSource']).toEqual({ uri: PAGE });
    expect(props.messagingEnabled).toBe(true);
    if (viewConfig) {
      // 13.17.0 to 15.0.0 also hand their own resolved `source` on, which their view config leaves out (16.0.0 stopped).
      const allowed = new Set([...nativeProps(viewConfig), ...(version === '16' ? [] : ['source'])]);
      expect(Object.keys(props).filter((name) => !allowed.has(name) && props[name] !== undefined)).toEqual([]);
    }
    app.unmount();
  });

  /**
   * How Android's native code reaches the view's JavaScript: the Babel builds call RNCWebViewMessagingModule with the
   * view's `messagingModuleName`; the tsc builds (11.x, 12.x, 13.2.2) call the module the view registered under that
   * name (BatchedBridge).
   */
  const androidCall = (native: Awaited<ReturnType<typeof openOn>>['native'], props: Record<string, any>, method: string, nativeEvent: unknown) =>
    !shipsTscBuild(version) ? native.callable.RNCWebViewMessagingModule![method]!({ messagingModuleName: props.messagingModuleName, nativeEvent }) : native.callable[props.messagingModuleName]![method]!({ nativeEvent });

  it("closes on the page's close message, delivered as the library delivers it, and stays open on another message", async () => {
    const { app, handle, view, native } = await openOn(os, version);
    let closed = false;
    void handle.closed.then(() => (closed = true));
    const message = (data: string) => {
      // iOS: the native view's onMessage event; Android: through the messaging module (androidCall).
      if (os === 'ios') view()!.props.onMessage({ nativeEvent: { data, url: PAGE } });
      else androidCall(native, view()!.props, 'onMessage', { data, url: PAGE });
    };
    message('hello');
    await tick();
    expect([closed, !!view()]).toEqual([false, true]);
    message(WEBVIEW_CLOSE_MESSAGE);
    await tick();
    expect([closed, view()]).toEqual([true, undefined]);
    app.unmount();
  });

  it("answers navigations through the library: the page's own origin loads, another goes to the browser", async () => {
    const { app, view, native } = await openOn(os, version);
    const navigate = (url: string, lockIdentifier: number) => {
      const nativeEvent = { url, lockIdentifier, navigationType: 'click', isTopFrame: true, mainDocumentURL: PAGE };
      if (os === 'ios') view()!.props.onShouldStartLoadWithRequest({ nativeEvent });
      else androidCall(native, view()!.props, 'onShouldStartLoadWithRequest', nativeEvent);
    };
    navigate('https://campaign.example/webview/next', 1);
    navigate('https://elsewhere.example/', 2);
    await tick();
    expect(native.answers).toEqual([
      { shouldStart: true, lockIdentifier: 1 },
      { shouldStart: false, lockIdentifier: 2 },
    ]);
    expect(native.opened).toEqual(['linking https://elsewhere.example/']);
    app.unmount();
  });

  it('closes when the page fails to load or answers an HTTP error (the library calls onError / onHttpError)', async () => {
    for (const fail of ['onLoadingError', 'onHttpError'] as const) {
      const { app, handle, view } = await openOn(os, version);
      let closed = false;
      void handle.closed.then(() => (closed = true));
      // A React Native synthetic event: the library calls its persist() and isDefaultPrevented() (src/WebViewShared.tsx onLoadingError).
      view()!.props[fail]({ nativeEvent: { url: PAGE, code: -1009, description: 'offline', domain: 'NSURLErrorDomain', statusCode: 502 }, persist() {}, isDefaultPrevented: () => false });
      await tick();
      expect([fail, closed, view()]).toEqual([fail, true, undefined]);
      app.unmount();
    }
  });
});
