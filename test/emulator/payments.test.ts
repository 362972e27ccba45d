// Payments: bulk with full records and per-item results, one payment.bulk_created per request, the single
// POST (payment.created, safe to retry) and the detail read (no platform/distributionType/status, 404).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BulkPaymentRequest, BulkPaymentResult, PaymentDetail, PaymentItem, PaymentRecord, PaymentRequest } from '../../core/schema/payments.js';
import { dataOf } from '../../core/schema/primitives.js';
import { DEMO_ACTIVE_CAMPAIGN_ID, DEMO_BOOSTED_CREATORS, DEMO_PENDING_CAMPAIGN_ID, DEMO_USERS, type Emulator } from '../../emulator/index.js';
import { at, caller, emulatorAtT0, itemErrorOf, paymentBody, problemsOf, startReceiver, subscribe } from './helpers.js';

describe('emulator payments', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let emulator: Emulator;
  let call: ReturnType<typeof caller>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());
  afterEach(async () => {
    await emulator.webhooksIdle();
    await emulator.close();
  });
  beforeEach(async () => {
    receiver.received.length = 0;
    emulator = emulatorAtT0();
    call = caller(emulator);
    await subscribe(emulator, receiver.url, ['payment.created', 'payment.bulk_created']);
  });

  const recordOf = (transactionId: string, id: number, overrides: Record<string, unknown> = {}) => ({
    id,
    transactionId,
    userId: 'user_1',
    productId: 'gem_pack_1',
    productName: 'Gem Pack',
    amount: 4.99,
    currency: 'USD',
    amountUsd: 4.99,
    platform: 'Other',
    distributionType: 'MOBILE_STORE',
    status: 'COMPLETED',
    isRefund: false,
    netAmount: 4.99,
    netCurrency: 'USD',
    campaignCurrency: 'USD',
    campaignId: DEMO_ACTIVE_CAMPAIGN_ID,
    creatorKey: '',
    purchasedAt: at(-1000),
    createdAt: at(0),
    ...overrides,
  });

  it('registers bulk payments with full records, SKIPPED for existing transactionIds and FAILED for invalid items', async () => {
    await call('POST', '/v1/server/payments/bulk', { body: { payments: [paymentBody('tx_old')] } });
    const answer = await call('POST', '/v1/server/payments/bulk', {
      body: {
        callbackId: 'cb-bulk',
        payments: [
          paymentBody('tx_1'),
          paymentBody('tx_krw', { userId: DEMO_USERS.changeable, amount: 12000, currency: 'KRW', netAmount: 8400, netCurrency: 'KRW', productName: undefined }),
          paymentBody('tx_old'),
          paymentBody('tx_bad', { amount: '4.99' }),
          paymentBody('tx_1'),
        ],
      },
    });
    expect(answer.status).toBe(200);
    expect(dataOf(BulkPaymentResult).parse(answer.body)).toEqual({
      data: {
        totalRequested: 5,
        successful: 2,
        failed: 1,
        skipped: 2,
        results: [
          { transactionId: 'tx_1', status: 'SUCCESS', data: recordOf('tx_1', 2) },
          {
            transactionId: 'tx_krw',
            status: 'SUCCESS',
            data: recordOf('tx_krw', 3, {
              userId: DEMO_USERS.changeable,
              productName: '',
              amount: 12000,
              currency: 'KRW',
              amountUsd: 9,
              netAmount: 8400,
              netCurrency: 'KRW',
              creatorKey: DEMO_BOOSTED_CREATORS.changeable,
            }),
          },
          { transactionId: 'tx_old', status: 'SKIPPED', data: recordOf('tx_old', 1) },
          { transactionId: 'tx_bad', status: 'FAILED', error: itemErrorOf(PaymentItem, paymentBody('tx_bad', { amount: '4.99' })) },
          { transactionId: 'tx_1', status: 'SKIPPED', data: recordOf('tx_1', 2) },
        ],
      },
    });
    expect(emulator.state().payments.map((p) => p.transactionId)).toEqual(['tx_old', 'tx_1', 'tx_krw']);
  });

  it('sends exactly one payment.bulk_created per request, failed-only requests included', async () => {
    await call('POST', '/v1/server/payments/bulk', { body: { callbackId: 'cb-1', payments: [paymentBody('tx_1'), paymentBody('tx_2'), paymentBody('tx_1')] } });
    await call('POST', '/v1/server/payments/bulk', { body: { payments: [paymentBody('tx_bad', { currency: '' })] } });
    await emulator.webhooksIdle();
    const events = receiver.events();
    expect(events.map((e) => e.type)).toEqual(['payment.bulk_created', 'payment.bulk_created']);
    expect(events[0]).toMatchObject({
      type: 'payment.bulk_created',
      callbackId: 'cb-1',
      data: { totalRequested: 3, successful: 2, failed: 0, skipped: 1, transactionIds: ['tx_1', 'tx_2'] },
    });
    expect(events[1]!.data).toEqual({ totalRequested: 1, successful: 0, failed: 1, skipped: 0, transactionIds: [] });
    expect(events[1]!.callbackId).toBeUndefined();
  });

  it('answers an invalid bulk envelope with 400 and sends no event', async () => {
    const answer = await call('POST', '/v1/server/payments/bulk', { body: { payments: 'all of them' } });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual(problemsOf(BulkPaymentRequest, { payments: 'all of them' }));
    expect(answer.body.details.map((d: { path: string }) => d.path)).toEqual(['payments']);
    await emulator.webhooksIdle();
    expect(receiver.received).toEqual([]);
  });

  it('registers one payment with POST /v1/server/payments and payment.created; a retry returns the same record without an event', async () => {
    const first = await call('POST', '/v1/server/payments', { body: { ...paymentBody('tx_single'), callbackId: 'cb-single' } });
    expect(first.status).toBe(200);
    expect(dataOf(PaymentRecord).parse(first.body)).toEqual({ data: recordOf('tx_single', 1) });
    emulator.advanceClock(1000);
    const retry = await call('POST', '/v1/server/payments', { body: paymentBody('tx_single', { amount: 1 }) });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    await emulator.webhooksIdle();
    const events = receiver.events();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'payment.created', callbackId: 'cb-single', data: recordOf('tx_single', 1) });
    expect(emulator.state().payments).toHaveLength(1);
  });

  it('attributes a payment to the active campaign, without the creator of a boost held in a pending campaign', async () => {
    const moved = await call('PUT', `/v1/server/sponsors/user/${DEMO_USERS.changeable}`, { body: { newCreatorKey: 'PIXEL', campaignId: DEMO_PENDING_CAMPAIGN_ID } });
    expect(moved.status).toBe(200);
    const answer = await call('POST', '/v1/server/payments', { body: paymentBody('tx_pending', { userId: DEMO_USERS.changeable }) });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual(recordOf('tx_pending', 1, { userId: DEMO_USERS.changeable, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: '' }));
    expect(emulator.state().payments.map(({ campaignId, creatorKey }) => ({ campaignId, creatorKey }))).toEqual([{ campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: '' }]);
  });

  it('answers an invalid single payment with 400 VALIDATION_ERROR', async () => {
    const answer = await call('POST', '/v1/server/payments', { body: paymentBody('tx', { purchasedAt: 'yesterday' }) });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual(problemsOf(PaymentRequest, paymentBody('tx', { purchasedAt: 'yesterday' })));
    expect(answer.body.details.map((d: { path: string }) => d.path)).toEqual(['purchasedAt']);
  });

  it('reads a payment as PaymentDetail (no platform, distributionType or status) and answers 404 for an unknown one', async () => {
    await call('POST', '/v1/server/payments', { body: paymentBody('tx_read') });
    const answer = await call('GET', '/v1/server/payments/tx_read');
    expect(answer.status).toBe(200);
    const { platform: _p, distributionType: _d, status: _s, ...detail } = recordOf('tx_read', 1);
    expect(answer.body).toEqual({ data: detail });
    expect(dataOf(PaymentDetail).parse(answer.body)).toEqual({ data: detail });
    const missing = await call('GET', '/v1/server/payments/tx_missing');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ status: 404, error: 'Not Found', message: 'Payment tx_missing not found', code: 'NOT_FOUND' });
  });

  it('answers amountUsd as a number for any amount: one whose USD value is beyond a double is FAILED (400 alone), never null', async () => {
    const answer = await call('POST', '/v1/server/payments/bulk', {
      body: { payments: [paymentBody('tx_huge', { amount: 1.7e308, currency: 'EUR' }), paymentBody('tx_large', { amount: 1e307 }), paymentBody('tx_ok')] },
    });
    expect(answer.status).toBe(200);
    const { results } = dataOf(BulkPaymentResult).parse(answer.body).data;
    expect(results.map((r) => [r.transactionId, r.status, r.data?.amountUsd ?? r.error])).toEqual([
      ['tx_huge', 'FAILED', 'amount: is too large to convert to USD'],
      ['tx_large', 'SUCCESS', 1e307],
      ['tx_ok', 'SUCCESS', 4.99],
    ]);
    expect(emulator.state().payments.map((p) => p.transactionId)).toEqual(['tx_large', 'tx_ok']);
    const single = await call('POST', '/v1/server/payments', { body: paymentBody('tx_huge', { amount: 1.7e308, currency: 'EUR' }) });
    expect(single.status).toBe(400);
    expect(single.body.details).toEqual([{ path: 'amount', message: 'is too large to convert to USD' }]);
    expect((await call('GET', '/v1/server/payments/tx_huge')).status).toBe(404);
    expect(dataOf(PaymentDetail).parse((await call('GET', '/v1/server/payments/tx_large')).body).data.amountUsd).toBe(1e307);
  });

  it('refuses a currency or netCurrency that is not an ISO 4217 code (FAILED in bulk, 400 alone) rather than converting it 1:1 to USD', async () => {
    const answer = await call('POST', '/v1/server/payments/bulk', {
      body: {
        payments: [
          paymentBody('tx_xxxx', { currency: 'XXXX' }),
          paymentBody('tx_net', { netAmount: 1, netCurrency: 'GEMS' }),
          paymentBody('tx_sign', { currency: '$' }),
          paymentBody('tx_mxn', { amount: 10, currency: 'MXN' }),
          paymentBody('tx_lower', { amount: 10, currency: 'eur' }),
        ],
      },
    });
    expect(answer.status).toBe(200);
    const { results } = dataOf(BulkPaymentResult).parse(answer.body).data;
    expect(results.map((r) => [r.transactionId, r.status, r.error])).toEqual([
      ['tx_xxxx', 'FAILED', 'currency: must be an ISO 4217 currency code (three letters, such as USD)'],
      ['tx_net', 'FAILED', 'netCurrency: must be an ISO 4217 currency code (three letters, such as USD)'],
      ['tx_sign', 'FAILED', 'currency: must be an ISO 4217 currency code (three letters, such as USD)'],
      ['tx_mxn', 'SUCCESS', undefined],
      ['tx_lower', 'SUCCESS', undefined],
    ]);
    expect(emulator.state().payments.map((p) => p.transactionId)).toEqual(['tx_mxn', 'tx_lower']);
    const single = await call('POST', '/v1/server/payments', { body: paymentBody('tx_xxxx', { currency: 'XXXX' }) });
    expect(single.status).toBe(400);
    expect(single.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'currency', message: 'must be an ISO 4217 currency code (three letters, such as USD)' }] });
    expect((await call('GET', '/v1/server/payments/tx_xxxx')).status).toBe(404);
  });

  it('takes purchasedAt as a store receipt writes it (any ISO 8601 UTC form; the millisecond form is a playtime rule), refuses local time', async () => {
    const forms = ['2024-05-01T10:30:00Z', '2024-05-01T10:30:00.123456Z', '2024-05-01T10:30:00+00:00'];
    const answer = await call('POST', '/v1/server/payments/bulk', {
      body: { payments: [...forms.map((purchasedAt, i) => ({ ...paymentBody(`tx_form_${i}`), purchasedAt })), { ...paymentBody('tx_local'), purchasedAt: '2024-05-01T19:30:00+09:00' }] },
    });
    expect(answer.status).toBe(200);
    const { results } = dataOf(BulkPaymentResult).parse(answer.body).data;
    expect(results.map((r) => [r.transactionId, r.status, r.data?.purchasedAt ?? r.error])).toEqual([
      ...forms.map((purchasedAt, i) => [`tx_form_${i}`, 'SUCCESS', purchasedAt]),
      ['tx_local', 'FAILED', 'purchasedAt: must be an ISO 8601 date-time in UTC, such as 2024-05-01T10:30:00Z'],
    ]);
    const single = await call('POST', '/v1/server/payments', { body: { ...paymentBody('tx_single'), purchasedAt: forms[0] } });
    expect(single.status).toBe(200);
    const read = await call('GET', '/v1/server/payments/tx_single');
    expect(dataOf(PaymentDetail).parse(read.body).data.purchasedAt).toBe(forms[0]);
  });
});
