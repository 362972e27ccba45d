/** Random identifiers and secrets the emulator hands out. */
import { base64Encode, SECRET_PREFIX } from '../core/webhooks/signature.js';

function randomBytes(length: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(length));
}

/** Base64URL without padding. */
export function base64Url(bytes: Uint8Array): string {
  return base64Encode(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An unguessable token: `prefix` + Base64URL of `bytes` random bytes. */
export function randomToken(prefix: string, bytes = 24): string {
  return prefix + base64Url(randomBytes(bytes));
}

/** A webhook signing secret: `whsec_` + base64 of 24 random bytes. */
export function webhookSecret(): string {
  return SECRET_PREFIX + base64Encode(randomBytes(24));
}
