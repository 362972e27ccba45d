/**
 * The webhook signing scheme. assumed (DESIGN section 10): the spec names a secret, a signature and a
 * timestamp check but not the scheme; we use Standard Webhooks: headers `webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256(id.timestamp.body)>`, secret
 * `whsec_<base64>`. One implementation signs (emulator, tests) and verifies (receivers).
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';

export const SECRET_PREFIX = 'whsec_';

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

const encoder = new TextEncoder();

/** Raw HMAC key bytes of a `whsec_<base64>` secret (a secret without the prefix is taken as base64 too). */
export function secretKey(secret: string): Uint8Array {
  return base64Decode(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
}

/** `v1,<base64 signature>` of one delivery. */
export function computeSignature(secret: string, id: string, timestampSeconds: number, payload: string | Uint8Array): string {
  return `v1,${base64Encode(signatureBytes(secret, id, timestampSeconds, payload))}`;
}

/** The HMAC-SHA256 of one delivery (`id.timestamp.body`), as bytes; an id given as text is signed as its UTF-8. */
export function signatureBytes(secret: string, id: string | Uint8Array, timestampSeconds: number | string, payload: string | Uint8Array): Uint8Array {
  const body = typeof payload === 'string' ? encoder.encode(payload) : payload;
  const idBytes = typeof id === 'string' ? encoder.encode(id) : id;
  const rest = encoder.encode(`.${timestampSeconds}.`);
  const content = new Uint8Array(idBytes.length + rest.length + body.length);
  content.set(idBytes);
  content.set(rest, idBytes.length);
  content.set(body, idBytes.length + rest.length);
  return hmac(sha256, secretKey(secret), content);
}

/** Compares two strings in time that depends only on their length. */
export function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Compares two byte arrays in time that depends only on their length. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 (no platform `btoa`/`Buffer`: core is platform-neutral). */
export function base64Encode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]!;
    out += i + 1 < bytes.length ? ALPHABET[(n >> 6) & 63]! : '=';
    out += i + 2 < bytes.length ? ALPHABET[n & 63]! : '=';
  }
  return out;
}

/** Decodes standard or URL-safe base64, padded or not. */
export function base64Decode(text: string): Uint8Array {
  const clean = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let index = 0;
  for (const char of clean) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) throw new TypeError('invalid base64');
    value = (value << 6) | digit;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[index++] = (value >> bits) & 255;
    }
  }
  return out;
}
