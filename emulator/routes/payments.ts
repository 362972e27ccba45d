/** Payments: bulk, single (assumed route) and read. @see spec "Register bulk payments", "Get payment" */
import type { Hono } from 'hono';
import type { ErrorDetail } from '../../core/schema/errors.js';
import { BulkPaymentRequest, PaymentItem, PaymentRequest, type PaymentDetail, type PaymentItemResult, type PaymentRecord } from '../../core/schema/payments.js';
import { bulkResultFrom } from '../../core/schema/primitives.js';
import { check, withoutPrototypes } from '../data-only.js';
import type { AppEnv, Services } from '../app-env.js';
import { describeDetails, envelopeProblems, invalid, notFound, ok, writeOptionsOf } from '../respond.js';
import type { Store } from '../store.js';

/**
 * USD per unit of each currency, fixed. assumed: the spec does not say how `amountUsd` is computed; an ISO 4217 code
 * missing here converts 1:1 (a code that is not one is refused: {@link currencyProblems}).
 */
export const USD_RATES: Readonly<Record<string, number>> = {
  USD: 1, EUR: 1.08, GBP: 1.27, JPY: 0.0067, KRW: 0.00075, CNY: 0.14, TWD: 0.031, HKD: 0.13, SGD: 0.74,
  THB: 0.028, IDR: 0.000063, PHP: 0.018, VND: 0.00004, INR: 0.012, BRL: 0.18, CAD: 0.73, AUD: 0.66,
};

/** Registers the payment routes. */
export function paymentRoutes(app: Hono<AppEnv>, { store, webhooks }: Services): void {
  app.post('/v1/server/payments/bulk', (c) => {
    const body = c.get('json');
    const whole = check(BulkPaymentRequest, body);
    if (!whole.success) {
      const problems = envelopeProblems(whole.details, 'payments');
      if (problems.length > 0) return invalid(c, problems);
    }
    const { isTest, callbackId } = writeOptionsOf(body);
    const items: unknown[] = whole.success ? whole.data.payments : (body as { payments: unknown[] }).payments;
    const mock = new Map<string, PaymentRecord>();
    const results = items.map((item): PaymentItemResult => {
      const parsed = check(PaymentItem, item);
      if (!parsed.success) return { transactionId: idOf(item), status: 'FAILED', error: describeDetails(parsed.details) };
      const currencies = currencyProblems(parsed.data);
      if (currencies.length > 0) return { transactionId: parsed.data.transactionId, status: 'FAILED', error: describeDetails(currencies) };
      const { transactionId } = parsed.data;
      const existing = store.payments.get(transactionId) ?? mock.get(transactionId);
      if (existing) return { transactionId, status: 'SKIPPED', data: existing };
      const record = paymentRecord(store, parsed.data, isTest);
      if (!record) return { transactionId, status: 'FAILED', error: describeDetails([AMOUNT_TOO_LARGE]) };
      if (isTest) mock.set(transactionId, record);
      else store.keep(store.payments, transactionId, record);
      return { transactionId, status: 'SUCCESS', data: record };
    });
    const result = bulkResultFrom(results);
    if (!isTest) {
      const { results: _, ...summary } = result;
      const transactionIds = results.filter((r) => r.status === 'SUCCESS').map((r) => r.transactionId);
      webhooks.emit('payment.bulk_created', { ...summary, transactionIds }, callbackId);
    }
    return ok(c, result);
  });

  app.post('/v1/server/payments', (c) => {
    const checked = check(PaymentRequest, c.get('json'));
    if (!checked.success) return invalid(c, checked.details);
    const currencies = currencyProblems(checked.data);
    if (currencies.length > 0) return invalid(c, currencies);
    const { isTest, callbackId, ...rest } = checked.data;
    const item = withoutPrototypes(rest); // a rest object is a new `{}`: `item.netAmount` must not be inherited
    const existing = store.payments.get(item.transactionId);
    if (existing) return ok(c, existing);
    const record = paymentRecord(store, item, isTest === true);
    if (!record) return invalid(c, [AMOUNT_TOO_LARGE]);
    if (!isTest) {
      store.keep(store.payments, record.transactionId, record);
      webhooks.emit('payment.created', record, callbackId);
    }
    return ok(c, record);
  });

  app.get('/v1/server/payments/:transactionId', (c) => {
    const transactionId = c.req.param('transactionId');
    const record = store.payments.get(transactionId);
    if (!record) return notFound(c, `Payment ${transactionId} not found`);
    return ok(c, paymentDetail(record));
  });
}

/** ISO 4217's form of a currency code: three letters (either case, as the rates are looked up). */
const CURRENCY_CODE = /^[A-Za-z]{3}$/;

/**
 * A detail for `currency` and for `netCurrency` when it is not an ISO 4217 code. assumed: the spec types both as a
 * string without a list, and amountUsd is a conversion, so a value that names no currency (`XXXX`, `GEMS`, `$`) is
 * refused as a bad request parameter (VALIDATION_ERROR; FAILED in bulk) rather than recorded converted 1:1, a USD
 * value the service could never give. The form only: which codes exist changes with ISO and with each runtime's ICU.
 */
function currencyProblems({ currency, netCurrency }: { currency: string; netCurrency?: string | undefined }): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const message = 'must be an ISO 4217 currency code (three letters, such as USD)';
  if (!CURRENCY_CODE.test(currency)) problems.push({ path: 'currency', message });
  if (netCurrency !== undefined && !CURRENCY_CODE.test(netCurrency)) problems.push({ path: 'netCurrency', message });
  return problems;
}

/** An amount whose value in USD a JSON number cannot hold: answered rather than stored with `amountUsd: null`. */
const AMOUNT_TOO_LARGE: ErrorDetail = { path: 'amount', message: 'is too large to convert to USD' };

/**
 * `amount` in USD, rounded to the cent where the cents fit a double; undefined when the value is beyond one
 * (JSON would write Infinity as null, which no `amountUsd: number` reader takes).
 */
function amountInUsd(amount: number, currency: string): number | undefined {
  const usd = amount * (USD_RATES[currency.toUpperCase()] ?? 1);
  if (!Number.isFinite(usd)) return undefined;
  return Number.isFinite(usd * 100) ? Math.round(usd * 100) / 100 : usd;
}

/**
 * The record of a new payment, or undefined when its amount cannot be written in USD. assumed: platform 'Other',
 * distributionType 'MOBILE_STORE', status 'COMPLETED', campaign currency USD, net amount/currency default to
 * amount/currency, productName to ''; test-mode records have id 0 and are not stored.
 */
function paymentRecord(store: Store, item: PaymentItem, isTest: boolean): PaymentRecord | undefined {
  const amountUsd = amountInUsd(item.amount, item.currency);
  if (amountUsd === undefined) return undefined;
  const attribution = store.attribute(item.userId)!;
  return {
    id: isTest ? 0 : store.nextId('payment'),
    transactionId: item.transactionId,
    userId: item.userId,
    productId: item.productId,
    productName: item.productName ?? '',
    amount: item.amount,
    currency: item.currency,
    amountUsd,
    platform: 'Other',
    distributionType: 'MOBILE_STORE',
    status: 'COMPLETED',
    isRefund: false,
    netAmount: item.netAmount ?? item.amount,
    netCurrency: item.netCurrency ?? item.currency,
    campaignCurrency: 'USD',
    campaignId: attribution.campaignId,
    creatorKey: attribution.creatorKey,
    purchasedAt: item.purchasedAt,
    createdAt: store.iso(),
  };
}

/** The payment as the detail endpoint shows it: without platform, distributionType and status. */
function paymentDetail(record: PaymentRecord): PaymentDetail {
  const { platform: _platform, distributionType: _distributionType, status: _status, ...detail } = record;
  return detail;
}

function idOf(item: unknown): string {
  const id = typeof item === 'object' && item !== null ? (item as { transactionId?: unknown }).transactionId : undefined;
  return typeof id === 'string' ? id : '';
}
