/**
 * react-native-webview 16.0.0's own JavaScript (lib/WebView.ios.js, lib/WebView.android.js, lib/WebViewShared.js)
 * loaded under Node, with small stand-ins for what is native or React Native's, and rendered by a tiny renderer (no
 * react-test-renderer or react-dom is installed; React 19 calls hooks through its internal dispatcher `H`).
 * The stand-ins, each for one thing the library reads:
 * - `react-native`: `View`/`Text`/`ActivityIndicator` as host names, `StyleSheet.create`, `Image.resolveAssetSource`
 *   (a `{ uri }` source unchanged, as React Native's does), `Platform.OS`, `Linking` (records what it opens),
 *   `TurboModuleRegistry.getEnforcing('RNCWebViewModule')` (records each `shouldStartLoadWithLockIdentifier`: the
 *   answer iOS waits for, apple/RNCWebViewImpl.m decidePolicyForNavigationAction) and `registerCallableModule`
 *   (Android's messages and navigations come through the `RNCWebViewMessagingModule` it registers);
 * - `NativeComponentRegistry.get`: the host name `RNCWebView`; `codegenNativeCommands`, `dispatchCommand`: recorded;
 * - React Native's `EventEmitter` (Libraries/vendor/emitter/EventEmitter: `addListener` returns `{ remove }`).
 * 13.17.0, 14.0.1 and 15.0.0 read the same parts as 16.0.0. 12.4.0 and 13.2.2 read 11.23.1's for Android's messages
 * (a module per view), the TurboModule for navigation answers, and ship lib/ as 11.x does (shipsTscBuild).
 * 11.23.1 (what Expo SDK 47 installs; `loadRealWebView(os, '11')`, npm alias `webview-v11`) reads other parts: its view
 * from `requireNativeComponent('RNCWebView')` (a host name here), navigation answers through
 * `NativeModules.RNCWebView.onShouldStartLoadWithRequestCallback` (Android) and
 * `NativeModules.RNCWebViewManager.startLoadWithResult` (iOS; Android's `isFileUploadSupported` is read as it loads),
 * Android's messages through the module it registers with
 * `BatchedBridge.registerCallableModule`. Its lib/ is ES modules with JSX, turned into CommonJS by esbuild as it loads.
 */
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { transformSync } from 'esbuild';
import React from 'react';

const require = createRequire(import.meta.url);

/** What the stand-ins saw: pages opened in the browser, iOS's navigation answers, Android's messaging module. */
export interface NativeSide {
  opened: string[];
  answers: Array<{ shouldStart: boolean; lockIdentifier: number }>;
  callable: Record<string, Record<string, (event: unknown) => void>>;
}

/** The native view's config (lib/RNCWebViewNativeComponent.js): the attributes and events native code takes. */
export interface ViewConfig {
  validAttributes: Record<string, unknown>;
  directEventTypes: Record<string, { registrationName: string }>;
}

/** The stand-in for `require(request)`, or undefined for a real module. */
function standIn(request: string, os: 'ios' | 'android', native: NativeSide): unknown {
  const answer = (shouldStart: boolean, lockIdentifier: number) => void native.answers.push({ shouldStart, lockIdentifier });
  const registerCallableModule = (name: string, module: Record<string, (event: unknown) => void>) => void (native.callable[name] = module);
  if (request === 'react-native') {
    return {
      View: 'View',
      Text: 'Text',
      ActivityIndicator: 'ActivityIndicator',
      StyleSheet: { create: <T>(styles: T) => styles },
      Image: { resolveAssetSource: (source: unknown) => source },
      Platform: { OS: os, select: (choices: Record<string, unknown>) => choices[os] ?? choices.default },
      Linking: { canOpenURL: async () => true, openURL: async (url: string) => void native.opened.push(url) },
      TurboModuleRegistry: { getEnforcing: () => ({ shouldStartLoadWithLockIdentifier: answer }) },
      registerCallableModule,
      // 11.23.1's parts (src/WebView.android.tsx, src/WebView.ios.tsx, src/WebViewNativeComponent.*.ts).
      requireNativeComponent: (name: string) => name,
      NativeModules: { RNCWebView: { onShouldStartLoadWithRequestCallback: answer, isFileUploadSupported: async () => false }, RNCWebViewManager: { startLoadWithResult: answer } },
    };
  }
  if (request.endsWith('/NativeComponentRegistry')) return { get: (name: string) => name };
  if (request.endsWith('/ViewConfigIgnore')) return { ConditionallyIgnoredEventHandlers: <T>(handlers: T) => handlers };
  if (request.endsWith('/codegenNativeComponent')) return { __esModule: true, default: (name: string) => name };
  if (request.endsWith('/codegenNativeCommands')) return { __esModule: true, default: () => ({}) };
  if (request.endsWith('/RendererProxy')) return { dispatchCommand: () => {} };
  if (request.endsWith('/BatchedBridge')) return { __esModule: true, default: { registerCallableModule } };
  if (request.endsWith('/vendor/emitter/EventEmitter')) {
    class EventEmitter {
      private readonly listeners = new Map<string, Set<(event: unknown) => void>>();
      addListener(type: string, listener: (event: unknown) => void) {
        const set = this.listeners.get(type) ?? new Set();
        this.listeners.set(type, set.add(listener));
        return { remove: () => set.delete(listener) };
      }
      emit(type: string, event: unknown) {
        this.listeners.get(type)?.forEach((listener) => listener(event));
      }
    }
    return { __esModule: true, default: EventEmitter };
  }
  return request.startsWith('react-native/') ? {} : undefined;
}

/**
 * The react-native-webview versions run: 16.0.0 (`react-native-webview`) and the npm aliases `webview-v11`
 * (11.23.1), `webview-v12` (12.4.0), `webview-v13-2` (13.2.2, Expo SDK 49's), `webview-v13` (13.17.0), `webview-v14`
 * (14.0.1) and `webview-v15` (15.0.0).
 */
export type WebViewVersion = '11' | '12' | '13.2' | '13' | '14' | '15' | '16';

/** Where each version's JavaScript is: 16.0.0 is installed under its own name, the others under an npm alias. */
const packageOf = (version: WebViewVersion) => (version === '16' ? 'react-native-webview' : `webview-v${version.replace('.', '-')}`);

/**
 * Up to 13.2.2 the library ships lib/ as ES modules with JSX (tsc with `jsx: preserve`), what Metro loads (no
 * `react-native` field in package.json until 13.6); its native view has no view config in JavaScript (12.x's
 * lib/RNCWebViewNativeComponent.js calls codegenNativeComponent, which then asks native), and Android's messages
 * come through a module each view registers (13.6.4 too, read). 13.8.6 on (13.8.6 to 13.15.0 read, 13.17.0 run)
 * ship lib/ as CommonJS built by Babel (requiring @babel/runtime), run here, while Metro takes their `react-native`
 * field, src/index.ts, the same source; Android's messages come through one RNCWebViewMessagingModule.
 */
export const shipsTscBuild = (version: WebViewVersion) => version === '11' || version === '12' || version === '13.2';

/**
 * react-native-webview's `WebView` for `os`, loaded fresh over the stand-ins, and what its native side saw: 16.0.0 by
 * default, or another of WebViewVersion; the tsc builds have no view config (`viewConfig` undefined).
 */
export function loadRealWebView(os: 'ios' | 'android', version: WebViewVersion = '16'): { WebView: unknown; native: NativeSide; viewConfig: ViewConfig | undefined } {
  const native: NativeSide = { opened: [], answers: [], callable: {} };
  const loader = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown; _extensions: Record<string, (module: { _compile(code: string, file: string): void }, file: string) => void> };
  const load = loader._load;
  const lib = `/${packageOf(version)}/lib/`;
  const file = require.resolve(`${packageOf(version)}/lib/WebView.${os}.js`);
  const own = Object.keys(require.cache).filter((key) => key.includes(lib));
  own.forEach((key) => delete require.cache[key]);
  loader._load = function (request, parent, isMain) {
    return standIn(request, os, native) ?? load.call(this, request, parent, isMain);
  };
  const compileJs = loader._extensions['.js']!;
  if (shipsTscBuild(version)) {
    loader._extensions['.js'] = (module, path) => {
      if (!path.includes(lib)) return compileJs(module, path);
      module._compile(transformSync(readFileSync(path, 'utf8'), { loader: 'jsx', format: 'cjs', jsx: 'transform' }).code, path);
    };
  }
  // The Babel builds (13.x on) warn at load about their own deep imports of react-native (what the stand-ins answer).
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void (String(args[0]).startsWith('Deep imports') || warn(...args));
  try {
    const WebView = (require(file) as { default: unknown }).default;
    if (shipsTscBuild(version)) return { WebView, native, viewConfig: undefined };
    const { __INTERNAL_VIEW_CONFIG: viewConfig } = require(`${packageOf(version)}/lib/RNCWebViewNativeComponent.js`) as { __INTERNAL_VIEW_CONFIG: ViewConfig };
    return { WebView, native, viewConfig };
  } finally {
    loader._load = load;
    loader._extensions['.js'] = compileJs;
    console.warn = warn;
  }
}

/** A rendered host element: its type (a host name) and props, children rendered. */
export interface HostNode {
  type: string;
  props: Record<string, any>;
}

interface Instance {
  hooks: any[];
  effects: Array<() => void>;
  cleanups: Map<number, () => void>;
  unsubscribe?: () => void;
}

const sameDeps = (a: unknown[] | undefined, b: unknown[] | undefined) => !!a && !!b && a.length === b.length && a.every((value, i) => Object.is(value, b[i]));

/**
 * Renders `element` (function components, `forwardRef`, host names), keeping each component's hooks between renders by
 * its place in the tree; a store change (useSyncExternalStore) or a state update renders it again. Effects run after
 * each render when their dependencies changed. Enough for react-native-webview's WebView and the SDK's host.
 */
export function mount(element: unknown): { root(): HostNode[]; unmount(): void } {
  const internals = (React as unknown as { __CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE: { H: unknown } }).__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;
  const instances = new Map<string, Instance>();
  let seen = new Set<string>();
  let tree: HostNode[] = [];
  let rendering = false;
  const rerender = () => {
    if (rendering) return;
    rendering = true;
    try {
      seen = new Set();
      tree = renderNode(element, 'root');
      for (const [path, instance] of instances) if (!seen.has(path)) unmountInstance(path, instance);
      for (const instance of instances.values()) instance.effects.splice(0).forEach((effect) => effect());
    } finally {
      rendering = false;
    }
  };
  const unmountInstance = (path: string, instance: Instance) => {
    instance.cleanups.forEach((cleanup) => cleanup());
    instance.unsubscribe?.();
    instances.delete(path);
  };
  const callComponent = (path: string, render: () => unknown) => {
    seen.add(path);
    const instance: Instance = instances.get(path) ?? { hooks: [], effects: [], cleanups: new Map() };
    instances.set(path, instance);
    let index = 0;
    const effect = (create: () => void | (() => void), deps?: unknown[]) => {
      const at = index++;
      if (sameDeps(instance.hooks[at], deps)) return;
      instance.hooks[at] = deps;
      instance.effects.push(() => {
        instance.cleanups.get(at)?.();
        const cleanup = create();
        if (typeof cleanup === 'function') instance.cleanups.set(at, cleanup);
      });
    };
    const memo = <T>(make: () => T, deps?: unknown[]): T => {
      const at = index++;
      const slot = instance.hooks[at] as { deps?: unknown[]; value: T } | undefined;
      if (slot && sameDeps(slot.deps, deps)) return slot.value;
      return (instance.hooks[at] = { deps, value: make() }).value;
    };
    const dispatcher = {
      useState<T>(initial: T | (() => T)) {
        const at = index++;
        if (!(at in instance.hooks)) {
          const set = (next: T | ((value: T) => T)) => {
            const value = typeof next === 'function' ? (next as (value: T) => T)(instance.hooks[at][0]) : next;
            if (Object.is(value, instance.hooks[at][0])) return;
            instance.hooks[at] = [value, set];
            queueMicrotask(rerender);
          };
          instance.hooks[at] = [typeof initial === 'function' ? (initial as () => T)() : initial, set];
        }
        return instance.hooks[at];
      },
      useRef: <T>(initial: T) => memo(() => ({ current: initial }), []),
      useMemo: memo,
      useCallback: <T>(callback: T, deps?: unknown[]) => memo(() => callback, deps),
      useEffect: effect,
      useLayoutEffect: effect,
      useImperativeHandle: (ref: any, make: () => unknown, deps?: unknown[]) => effect(() => void (ref && (typeof ref === 'function' ? ref(make()) : (ref.current = make()))), deps),
      useSyncExternalStore<T>(subscribe: (onChange: () => void) => () => void, getSnapshot: () => T) {
        index++;
        instance.unsubscribe ??= subscribe(() => queueMicrotask(rerender));
        return getSnapshot();
      },
      useDebugValue: () => {},
    };
    const before = internals.H;
    internals.H = dispatcher;
    try {
      return render();
    } finally {
      internals.H = before;
    }
  };
  const renderNode = (node: any, path: string): HostNode[] => {
    if (node === null || node === undefined || typeof node === 'boolean') return [];
    if (Array.isArray(node)) return node.flatMap((child, i) => renderNode(child, `${path}.${i}`));
    if (typeof node !== 'object') return [{ type: '#text', props: { text: String(node) } }];
    const { type, props } = node as { type: any; props: Record<string, any> };
    if (typeof type === 'string') return [{ type, props: { ...props, children: renderNode(props.children, `${path}/${type}`) } }];
    if (typeof type === 'function') return renderNode(callComponent(`${path}/${type.name}`, () => type(props)), `${path}/${type.name}`);
    if (type?.$$typeof === Symbol.for('react.forward_ref')) {
      const { ref, ...rest } = props;
      return renderNode(callComponent(`${path}/forwardRef`, () => type.render(rest, ref ?? null)), `${path}/forwardRef`);
    }
    if (type === Symbol.for('react.fragment')) return renderNode(props.children, path);
    throw new Error(`mount: cannot render ${String(type)}`);
  };
  rerender();
  return {
    root: () => tree,
    unmount() {
      for (const [path, instance] of instances) unmountInstance(path, instance);
      tree = [];
    },
  };
}

/** Every host node named `type` in `nodes`, depth first. */
export function findAll(nodes: HostNode[], type: string): HostNode[] {
  return nodes.flatMap((node) => [...(node.type === type ? [node] : []), ...findAll(node.props.children ?? [], type)]);
}
