// A `webhook-id` that is not ASCII. Neither the spec nor Standard Webhooks sets the id's characters, and runtimes hand
// a header's bytes over differently: Node, Bun and Deno one character a byte (Latin-1), workerd decoded as UTF-8 (a
// byte that is not UTF-8 as U+FFFD; probed, see core/webhooks/delivery-id.ts). On 94cab877 the id was signed as the
// UTF-8 of the text the runtime gave: an id sent in UTF-8 verified on workerd and was refused on Node, Bun and Deno.
// Here each header is given as each runtime gives it; test/runtimes sends the bytes to the four runtimes.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createWebhookReceiver } from '../../../core/webhooks/receiver.js';
import { secretKey } from '../../../core/webhooks/signature.js';
import { verifyDelivery } from '../../../core/webhooks/verify.js';
import { NOW_MS, NOW_SECONDS, SECRET } from './fixtures.js';

const payload = JSON.stringify({ type: 'coupon.redeemed', createdAt: '2024-05-01T12:00:00.000Z', data: { couponCode: 'DAILY' } });

/** `v1,<signature>` over exactly these id bytes, as a sender signs. */
function signedOver(idBytes: Buffer): string {
  const content = Buffer.concat([idBytes, Buffer.from(`.${NOW_SECONDS}.`), Buffer.from(payload)]);
  return `v1,${createHmac('sha256', secretKey(SECRET)).update(content).digest('base64')}`;
}

/** The header text a runtime gives for these bytes: Node, Bun and Deno (`latin1`) or workerd (UTF-8, lossy). */
const asNode = (bytes: Buffer) => bytes.toString('latin1');
const asWorkerd = (bytes: Buffer) => new TextDecoder().decode(bytes);

function headersOf(idText: string, signature: string) {
  return { 'webhook-id': idText, 'webhook-timestamp': String(NOW_SECONDS), 'webhook-signature': signature };
}
const verifyWith = (idText: string, signature: string) => verifyDelivery({ payload, headers: headersOf(idText, signature), secret: SECRET, now: () => NOW_MS });

describe('a webhook-id that is not ASCII verifies the same on every runtime', () => {
  it.each([
    ['an accented id', 'msg_é'],
    ['an id in another script', 'msg_日本'],
  ])('%s sent in UTF-8 and signed so (a Go sender): verified on both readings, with one delivery id', async (_name, id) => {
    const wire = Buffer.from(id, 'utf8');
    const signature = signedOver(wire);
    const onNode = await verifyWith(asNode(wire), signature);
    const onWorkerd = await verifyWith(asWorkerd(wire), signature);
    expect(onNode.delivery.id).toBe(id);
    expect(onWorkerd.delivery.id).toBe(id);
    // The event's id falls back to the delivery's: the same on both.
    expect([onNode.event.id, onWorkerd.event.id]).toEqual([id, id]);
  });

  it('an id sent in Latin-1 and signed as UTF-8 (a JavaScript sender: a fetch header is a ByteString) verifies where its bytes arrive', async () => {
    const wire = Buffer.from('msg_é', 'latin1'); // one byte, 0xE9
    const signature = signedOver(Buffer.from('msg_é', 'utf8'));
    await expect(verifyWith(asNode(wire), signature)).resolves.toMatchObject({ delivery: { id: 'msg_é' } });
    // workerd gave U+FFFD for the byte: the signed id is gone there, said plainly (not a bare invalid_signature).
    await expect(verifyWith(asWorkerd(wire), signature)).rejects.toMatchObject({ reason: 'invalid_signature', message: expect.stringMatching(/U\+FFFD.*Cloudflare Workers/) });
  });

  it('an id sent and signed in Latin-1 bytes verifies where its bytes arrive', async () => {
    const wire = Buffer.from('msg_é', 'latin1');
    await expect(verifyWith(asNode(wire), signedOver(wire))).resolves.toMatchObject({ delivery: { id: 'msg_é' } });
  });

  it('a delivery sent again with its signed id written the other way on the wire is a replay', async () => {
    // A JavaScript sender's id `Ã©` goes out as the bytes C3 A9 and is signed as its UTF-8, C3 83 C2 A9; the same
    // signature with those four bytes on the wire names the same signed id.
    const signature = signedOver(Buffer.from('Ã©', 'utf8'));
    const receiver = createWebhookReceiver({ secret: SECRET, now: () => NOW_MS });
    const deliver = (idText: string) => receiver.verify({ payload, headers: headersOf(idText, signature) });
    await expect(deliver(asNode(Buffer.from('Ã©', 'latin1')))).resolves.toMatchObject({ type: 'coupon.redeemed' });
    await expect(deliver(asNode(Buffer.from('Ã©', 'utf8')))).rejects.toMatchObject({ reason: 'replayed' });
  });

  it('an id that is not ASCII and not signed is still refused, on both readings', async () => {
    const wire = Buffer.from('msg_é', 'utf8');
    const forged = signedOver(Buffer.from('msg_e', 'utf8'));
    await expect(verifyWith(asNode(wire), forged)).rejects.toMatchObject({ reason: 'invalid_signature' });
    await expect(verifyWith(asWorkerd(wire), forged)).rejects.toMatchObject({ reason: 'invalid_signature' });
  });
});
