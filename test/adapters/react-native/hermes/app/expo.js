/**
 * A stand-in for `expo` and `expo-modules-core`, which Metro resolves instead of the real ones (hermes.ts, `standIns`):
 * expo-crypto's JavaScript (build/ExpoCrypto.js, build/aes/ExpoCryptoAES.js) loads its native modules with
 * `requireNativeModule(name)`, which throws for a module the app was not built with (expo-modules-core
 * src/requireNativeModule.ts), and imports `NativeModule`, `CodedError` and `UnavailabilityError`.
 * `ExpoCrypto` answers as expo-crypto's native module does (ios/CryptoModule.swift, android/.../CryptoModule.kt):
 * `getRandomValues(typedArray)` fills the array in place, synchronously, from the device's random source;
 * `digestAsync(algorithm, data)` resolves with an ArrayBuffer (SHA-256 here, written out: Hermes has none);
 * expo-crypto 12.2.1's module has a synchronous `digest` instead (`ExpoCrypto12`).
 * Every call is counted in `expoCalls`.
 */
import { answer, randomByte } from './device.js';

export const expoCalls = { getRandomValues: 0, digestAsync: [], digest: [] };

const K = [];
const H0 = [];
const fraction = (x) => ((x - Math.floor(x)) * 4294967296) | 0;
for (let n = 2; K.length < 64; n++) {
  let prime = true;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) prime = false;
  if (!prime) continue;
  if (H0.length < 8) H0.push(fraction(Math.sqrt(n)));
  K.push(fraction(Math.cbrt(n)));
}
const rotate = (x, n) => (x >>> n) | (x << (32 - n));

/** SHA-256 of `bytes` (FIPS 180-4). */
function sha256(bytes) {
  const length = bytes.length;
  const padded = new Uint8Array(((length + 72) >> 6) << 6);
  padded.set(bytes);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 536870912));
  view.setUint32(padded.length - 4, length << 3);
  const hash = H0.slice();
  const w = new Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 64; i++) {
      if (i < 16) w[i] = view.getUint32(block + i * 4);
      else {
        const a = w[i - 15], b = w[i - 2];
        w[i] = (w[i - 16] + (rotate(a, 7) ^ rotate(a, 18) ^ (a >>> 3)) + w[i - 7] + (rotate(b, 17) ^ rotate(b, 19) ^ (b >>> 10))) | 0;
      }
    }
    let [a, b, c, d, e, f, g, h] = hash;
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
      const t2 = ((rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    [a, b, c, d, e, f, g, h].forEach((value, i) => (hash[i] = (hash[i] + value) | 0));
  }
  const out = new DataView(new ArrayBuffer(32));
  hash.forEach((value, i) => out.setUint32(i * 4, value));
  return out.buffer;
}

/** `getRandomValues(typedArray)`: fills it in place, synchronously (both versions). */
function getRandomValues(typedArray) {
  expoCalls.getRandomValues++;
  const bytes = new Uint8Array(typedArray.buffer, typedArray.byteOffset, typedArray.byteLength);
  for (let i = 0; i < bytes.length; i++) bytes[i] = randomByte();
}
const bytesOf = (data) => new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
/** 57.0.3's module: `digestAsync(algorithm, data)` resolves with an ArrayBuffer. */
const ExpoCrypto57 = {
  getRandomValues,
  digestAsync(algorithm, data) {
    expoCalls.digestAsync.push(algorithm);
    if (algorithm !== 'SHA-256') return Promise.reject(new Error(`digest: ${algorithm} not in this stand-in`));
    return answer(() => sha256(bytesOf(data)));
  },
};
/**
 * 12.2.1's module (Expo SDK 48; android/.../CryptoModule.kt `Function("digest")`, ios/CryptoModule.swift alike): no
 * `digestAsync`; `digest(algorithm, output, data)` writes the digest into `output`, synchronously, and its
 * JavaScript (build/Crypto.js `digest`) wraps that in a promise. Used when `__STORY__.expoCrypto` is `'v12.2'`.
 */
const ExpoCrypto12 = {
  getRandomValues,
  digest(algorithm, output, data) {
    expoCalls.digest.push(algorithm);
    if (algorithm !== 'SHA-256') throw new Error(`digest: ${algorithm} not in this stand-in`);
    output.set(new Uint8Array(sha256(bytesOf(data))));
  },
};
const ExpoCrypto = (globalThis.__STORY__ || {}).expoCrypto === 'v12.2' ? ExpoCrypto12 : ExpoCrypto57;
/** expo-crypto 57's AES module: build/aes/index.js extends its shared-object classes as it loads. */
const ExpoCryptoAES = { EncryptionKey: class EncryptionKey {}, SealedData: class SealedData {} };
const modules = { ExpoCrypto, ExpoCryptoAES };

export function requireNativeModule(name) {
  if (!modules[name]) throw new Error(`Cannot find native module '${name}'`);
  return modules[name];
}
export class NativeModule {}
export class CodedError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}
export class UnavailabilityError extends CodedError {
  constructor(moduleName, propertyName) {
    super('ERR_UNAVAILABLE', `The method or property ${moduleName}.${propertyName} is not available on this platform`);
  }
}
export const registerWebModule = (module) => module;
