import { describe, expect, it } from 'vitest';
import { RecentDeliveries } from '../../../core/webhooks/recent-deliveries.js';
import { couponRedeemed, received } from './fixtures.js';

describe('RecentDeliveries', () => {
  it('forgets expired deliveries on the next insert, so memory stays bounded', () => {
    const recent = new RecentDeliveries();
    for (let i = 0; i < 1000; i++) recent.add(`msg_${i}`, received(couponRedeemed({ id: `evt_${i}` })), 1000 + i, i);
    expect(recent.size).toBe(1000);

    recent.add('msg_late', received(couponRedeemed({ id: 'evt_late' })), 5000, 1500);
    expect(recent.size).toBe(500);
    expect(recent.get('msg_500', 1500)).toBeUndefined();
    expect(recent.get('msg_501', 1500)?.id).toBe('evt_501');
  });

  it('treats an entry as gone at its expiry even before it is pruned', () => {
    const recent = new RecentDeliveries();
    recent.add('msg_1', received(couponRedeemed()), 100, 0);

    expect(recent.get('msg_1', 99)?.id).toBe('evt_coupon_1');
    expect(recent.get('msg_1', 100)).toBeUndefined();
    expect(recent.find(() => true, 100)).toBeUndefined();
  });

  it('finds the oldest live event that matches', () => {
    const recent = new RecentDeliveries();
    recent.add('msg_1', received(couponRedeemed({ id: 'evt_1', callbackId: 'a' })), 100, 0);
    recent.add('msg_2', received(couponRedeemed({ id: 'evt_2', callbackId: 'b' })), 200, 0);
    recent.add('msg_3', received(couponRedeemed({ id: 'evt_3', callbackId: 'b' })), 300, 0);

    expect(recent.find((e) => e.callbackId === 'b', 0)?.id).toBe('evt_2');
    expect(recent.find((e) => e.callbackId === 'b', 200)?.id).toBe('evt_3');
  });
});
