/**
 * The web view host (createWebViewHost) over react-native-webview 16.0.0's real JavaScript, iOS and Android, rendered
 * under Node (real-webview.ts: the library's native parts stood in): the props the host passes are ones the component
 * takes and hands on to its native view, and the page's messages, navigations and failures arrive the way the library
 * delivers them from native code.
 */
import React from 'react';
import { describe, expect, it } from 'vitest';
import { createWebViewHost, WEBVIEW_CLOSE_MESSAGE } from '../../../adapters/react-native/index.js';
import { findAll, loadRealWebView, mount, type HostNode, type ViewConfig } from './real-webview.js';

const PAGE = 'https://campaign.example/webview?ott=ott-1#code_verifier=v';
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** What the native view takes (lib/RNCWebViewNativeComponent.js): its attributes and events, and style. */
const nativeProps = ({ validAttributes, directEventTypes }: ViewConfig) =>
  new Set([...Object.keys(validAttributes), ...Object.values(directEventTypes).map((event) => event.registrationName), 'style', 'ref', 'children']);

/** A game with the host rendered once (`<><Game /><webView.Host /></>`), over the real WebView of `os`. */
async function openOn(os: 'ios' | 'android') {
  const { WebView, native, viewConfig } = loadRealWebView(os);
  const Linking = { openURL: async (url: string) => void native.opened.push(`linking ${url}`) };
  const webView = createWebViewHost({ React, WebView, Linking });
  const app = mount(React.createElement(React.Fragment, null, React.createElement('Game'), React.createElement(webView.Host)));
  const handle = await webView.open(PAGE);
  await tick();
  const view = (): HostNode | undefined => findAll(app.root(), 'RNCWebView')[0];
  return { app, handle, view, native, viewConfig };
}

describe.each(['ios', 'android'] as const)("the web view host on react-native-webview 16.0.0's own JavaScript (%s)", (os) => {
  it('renders its native view with the page, messaging on, and nothing the native view does not take', async () => {
    const { app, view, viewConfig } = await openOn(os);
    const props = view()!.props;
    expect(props.newSource).toEqual({ uri: PAGE });
    expect(props.messagingEnabled).toBe(true);
    const allowed = nativeProps(viewConfig);
    expect(Object.keys(props).filter((name) => !allowed.has(name) && props[name] !== undefined)).toEqual([]);
    app.unmount();
  });

  it("closes on the page's close message, delivered as the library delivers it, and stays open on another message", async () => {
    const { app, handle, view, native } = await openOn(os);
    let closed = false;
    void handle.closed.then(() => (closed = true));
    const message = (data: string) => {
      // iOS: the native view's onMessage event; Android: RNCWebViewMessagingModule.onMessage, for the view's messagingModuleName.
      if (os === 'ios') view()!.props.onMessage({ nativeEvent: { data, url: PAGE } });
      else native.callable.RNCWebViewMessagingModule!.onMessage!({ messagingModuleName: view()!.props.messagingModuleName, nativeEvent: { data, url: PAGE } });
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
    const { app, view, native } = await openOn(os);
    const navigate = (url: string, lockIdentifier: number) => {
      const nativeEvent = { url, lockIdentifier, navigationType: 'click', isTopFrame: true, mainDocumentURL: PAGE };
      if (os === 'ios') view()!.props.onShouldStartLoadWithRequest({ nativeEvent });
      else native.callable.RNCWebViewMessagingModule!.onShouldStartLoadWithRequest!({ messagingModuleName: view()!.props.messagingModuleName, nativeEvent });
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
      const { app, handle, view } = await openOn(os);
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
