/**
 * Object rest (`const { a, ...rest } = value`) written as a function. @react-native/babel-preset lowers object rest
 * to @babel/runtime's `objectWithoutProperties` helpers, two modules (about 0.4 KB gzip) that a React Native app
 * otherwise does not carry; object spread, which this uses, it leaves as it is (docs/performance.md).
 */

/** A shallow copy of `value` without `keys`: the own enumerable properties object rest would keep. */
export function withoutKeys<T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> {
  const rest: Partial<T> = { ...value };
  for (const key of keys) delete rest[key];
  return rest as Omit<T, K>;
}
