import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { looksLikeSrsAddress, SrsAddresses } from './srs-addresses';

const SECRET = 'an-srs-secret-of-at-least-32-characters';
const DAY_MS = 86_400_000;
const made = Date.UTC(2026, 10, 28, 9);

describe('SRS addresses (the Sender Rewriting Scheme, as postsrsd writes it)', () => {
  const srs = new SrsAddresses(SECRET, () => made);

  test('forward writes SRS0=hash=day=domain=local at our domain; reverse gives the sender back, whatever the case on the way', () => {
    const address = srs.forward('Ann.Archer+news@Vendor.example', 'letterbox.test');
    assert.match(address, /^SRS0=[a-z2-7]{8}=[A-Z2-7]{2}=vendor\.example=Ann\.Archer\+news@letterbox\.test$/);
    assert.ok(looksLikeSrsAddress(address));
    assert.deepEqual(srs.reverse(address), { sender: 'Ann.Archer+news@vendor.example' });
    assert.deepEqual(srs.reverse(address.toLowerCase()), { sender: 'ann.archer+news@vendor.example' });
    const withEquals = srs.forward('a=b@x.example', 'letterbox.test');
    assert.deepEqual(srs.reverse(withEquals), { sender: 'a=b@x.example' });
  });

  test('an altered hash, sender or domain, another secret, or something else entirely is refused', () => {
    const address = srs.forward('ann@vendor.example', 'letterbox.test');
    const [, hash] = address.split('=');
    const otherHash = hash.replace(/^./, (first) => (first === 'a' ? 'b' : 'a'));
    assert.deepEqual(srs.reverse(address.replace(hash, otherHash)), { refused: 'its hash does not match' });
    assert.deepEqual(srs.reverse(address.replace('=ann@', '=eve@')), { refused: 'its hash does not match' });
    assert.deepEqual(srs.reverse(address.replace('vendor.example', 'evil.example')), { refused: 'its hash does not match' });
    assert.deepEqual(new SrsAddresses(`${SECRET}-rotated`, () => made).reverse(address), { refused: 'its hash does not match' });
    assert.deepEqual(srs.reverse('ann@vendor.example'), { refused: 'not an SRS address' });
    assert.equal(looksLikeSrsAddress('ann@vendor.example'), false);
  });

  test('an address is honoured for 21 days, across the wrap of its day counter, and refused after', () => {
    const address = srs.forward('ann@vendor.example', 'letterbox.test');
    const at = (days: number) => new SrsAddresses(SECRET, () => made + days * DAY_MS).reverse(address);
    assert.deepEqual(at(21), { sender: 'ann@vendor.example' });
    assert.deepEqual(at(22), { refused: 'it is older than 21 days' });
    assert.deepEqual(at(400), { refused: 'it is older than 21 days' });
    const nearWrap = Math.ceil(made / DAY_MS / 1024) * 1024 * DAY_MS - 2 * DAY_MS;
    const late = new SrsAddresses(SECRET, () => nearWrap).forward('ann@vendor.example', 'letterbox.test');
    assert.deepEqual(new SrsAddresses(SECRET, () => nearWrap + 5 * DAY_MS).reverse(late), { sender: 'ann@vendor.example' });
  });
});
