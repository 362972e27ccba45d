/**
 * The deliveries of issue 15, for each of the seven event types: (a) every assumed field, (b) only `type` and
 * `data: {}`, (c) extra fields we do not know, (d) one assumed field of the wrong type, (e) a type the SDK
 * does not know. Each is genuine (signed with the secret), so every receiving surface must accept it; each
 * with one byte changed must be refused as `invalid_signature`. Shared by the core and node adapter tests.
 */
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../core/schema/webhooks.js';
import { FULL_DATA, sent } from './fixtures.js';

export interface ShapeCase {
  /** e.g. `sponsor.changed (d) one field of the wrong type`. */
  name: string;
  type: string;
  known: boolean;
  /** The body sent, signed as is. */
  body: Record<string, unknown>;
  /** The delivery id (`webhook-id`), unique per case so that receivers do not take one for a replay. */
  deliveryId: string;
  /** The typed view expected, `raw` aside (it is always `body`). */
  expected: Record<string, unknown>;
}

/** For (d): a field of each type sent with a type other than assumed. */
const WRONG: { [T in WebhookEventType]: [field: string, value: unknown] } = {
  'coupon.redeemed': ['reward', '100 gold'],
  'payment.created': ['amount', '4.99'],
  'payment.refunded': ['isRefund', 'yes'],
  'payment.bulk_created': ['transactionIds', 'tx-1,tx-2'],
  'sponsor.created': ['creatorName', 42],
  'sponsor.changed': ['newCreatorKey', null],
  'sponsor.ended': ['endedAt', 'yesterday'],
};

function casesOf(type: WebhookEventType, index: number): ShapeCase[] {
  const full = sent(type) as unknown as Record<string, unknown> & { data: Record<string, unknown> };
  const id = (kind: string) => `msg_${index}_${kind}`;
  const [wrongField, wrongValue] = WRONG[type];
  const { [wrongField]: _left, ...dataWithoutWrong } = full.data;
  const extraData = { ...full.data, tier: 'gold', nested: { level: 3 }, reward2: [1, 2] };
  return [
    { name: `${type} (a) every assumed field`, type, known: true, body: full, deliveryId: id('a'), expected: full },
    { name: `${type} (b) only type and data: {}`, type, known: true, body: { type, data: {} }, deliveryId: id('b'), expected: { id: id('b'), type, data: {} } },
    {
      name: `${type} (c) extra unknown fields`,
      type,
      known: true,
      body: { ...full, version: 2, data: extraData },
      deliveryId: id('c'),
      // Unknown payload fields are kept; unknown envelope fields only in `raw`.
      expected: { ...full, data: extraData },
    },
    {
      name: `${type} (d) one field of the wrong type (${wrongField})`,
      type,
      known: true,
      body: { ...full, data: { ...full.data, [wrongField]: wrongValue } },
      deliveryId: id('d'),
      expected: { ...full, data: dataWithoutWrong },
    },
    {
      name: `${type} (e) an unknown type`,
      type: `${type}.v2`,
      known: false,
      body: { ...full, type: `${type}.v2` },
      deliveryId: id('e'),
      expected: { ...full, type: `${type}.v2` },
    },
  ];
}

/** 35 cases: seven types by (a)-(e). */
export const SHAPE_CASES: ShapeCase[] = WEBHOOK_EVENT_TYPES.flatMap((type, index) => casesOf(type, index));

/** Every type has a full sample, so (a) really carries every assumed field. */
export const FULL_DATA_TYPES = Object.keys(FULL_DATA);

/** The payload with one byte changed (the low bit of the middle byte): same length, still ASCII. */
export function oneByteChanged(payload: string): string {
  const bytes = Buffer.from(payload, 'utf8');
  const middle = Math.floor(bytes.length / 2);
  bytes[middle] = bytes[middle]! ^ 1;
  return bytes.toString('utf8');
}
