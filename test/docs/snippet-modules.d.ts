// React Native and its community modules are not installed here (their types come with them): the guides'
// blocks are checked against these loose stand-ins, and the adapter's own option types check the shapes.
declare namespace JSX {
  type Element = unknown;
  interface IntrinsicElements {
    [name: string]: unknown;
  }
}
declare module 'react' {
  const React: any;
  export default React;
}
declare module 'react-native' {
  export const AppState: any;
  export const Linking: any;
}
declare module '@react-native-async-storage/async-storage' {
  const AsyncStorage: any;
  export default AsyncStorage;
  export function createAsyncStorage(name: string): any;
}
declare module '@react-native-community/netinfo' {
  const NetInfo: any;
  export default NetInfo;
}
declare module 'react-native-webview' {
  export const WebView: any;
}
declare module 'react-native-get-random-values' {}
declare module 'expo-crypto' {
  export function getRandomValues<T extends ArrayBufferView>(array: T): T;
  export function digest(algorithm: string, data: BufferSource): Promise<ArrayBuffer>;
  export const CryptoDigestAlgorithm: { SHA256: string };
}
