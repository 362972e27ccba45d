/**
 * The `webhook-id` header as the bytes its sender may have signed. Standard Webhooks signs `{msg_id}.{timestamp}.{payload}`
 * and sets no character set for the id, nor does the spec; an HTTP field value is bytes (RFC 9110 5.5: other than
 * ASCII, opaque). Runtimes hand those bytes over differently: Node, Bun and Deno give each byte as one character
 * (Latin-1), workerd decodes them as UTF-8, each byte that is not UTF-8 U+FFFD (probed on Node 20, Bun 1.4.4, Deno
 * 2.9.6, workerd 1.20261117.1 at 2024-10-14). And senders sign differently: one sends the bytes it signed (an id in
 * UTF-8: Go's net/http writes a string's bytes as they are), one sends its id in Latin-1 and signs its UTF-8 (a
 * JavaScript sender: a fetch header is a ByteString, and the Standard Webhooks library signs the text as UTF-8). Both
 * readings are tried on every runtime, so a delivery verifies the same on each whenever the runtime kept its bytes.
 * workerd does not keep them: it makes header strings with V8's `String::NewFromUtf8` (jsg `StringWrapper::wrap`), and
 * no Worker API gives the bytes (cloudflare/workerd issue #6927, open); an id that is not UTF-8 cannot be verified there.
 */

const encoder = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** One reading of the header: the bytes tried as signed, and the id they name (the replay key, the event's id). */
export interface SignedIdForm {
  bytes: Uint8Array;
  id: string;
}

/**
 * The readings of a `webhook-id` header: its UTF-8 (the text a runtime decoded, or a Latin-1 id signed as UTF-8), and,
 * when each character is one byte and one is not ASCII, those bytes as they arrived (an id signed as it was sent). An
 * ASCII id has one reading, itself. Each reading's id is its bytes read as UTF-8 (else one character a byte): the same
 * signed id is the same id on every runtime, whichever way it was written on the wire.
 */
export function signedIdForms(header: string): SignedIdForm[] {
  let ascii = true;
  let octets = true;
  for (let i = 0; i < header.length; i++) {
    const unit = header.charCodeAt(i);
    if (unit > 0x7f) ascii = false;
    if (unit > 0xff) octets = false;
  }
  if (ascii) return [{ bytes: encoder.encode(header), id: header }];
  const utf8 = encoder.encode(header);
  const forms = [{ bytes: utf8, id: idOf(utf8) }];
  if (octets) {
    const sent = Uint8Array.from(header, (char) => char.charCodeAt(0));
    forms.push({ bytes: sent, id: idOf(sent) });
  }
  return forms;
}

/** The id signed bytes name: their UTF-8, or one character a byte when they are not UTF-8. */
function idOf(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    let text = '';
    for (const byte of bytes) text += String.fromCharCode(byte);
    return text;
  }
}

/** True when a runtime decoded the header as UTF-8 and lost bytes that were not (each became U+FFFD). */
export function lostIdBytes(header: string): boolean {
  return header.includes('\ufffd');
}
