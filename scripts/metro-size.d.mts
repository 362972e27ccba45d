// Types of metro-size.mjs, for the tests that import it.
export declare const METRO_ROW: { label: string; budget: number; target: number };
export interface MetroSize {
  label: string;
  /** gzip bytes (the budgeted figure). */
  bytes: number;
  budget: number;
  target: number;
  /** The app with the SDK minus without it: minified JavaScript, gzip level 9, Hermes bytecode. */
  js: number;
  gzip: number;
  hermes: number;
  /** What `game-campaign-sdk/react-native/picker` adds to the app when it is imported and passed: not budgeted. */
  picker: { js: number; gzip: number; hermes: number };
  code: { withSdk: string; without: string; withPicker: string };
}
export declare function measureMetroSize(): Promise<MetroSize>;
