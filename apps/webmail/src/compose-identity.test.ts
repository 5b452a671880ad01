import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { answeringIdentity } from '../web/compose/answering-identity';
import { placeSignature, textSignatureSegment, withoutSignature, type SignatureSlot } from '../web/compose/signature-slot';

describe('the identity a reply or forward is written as', () => {
  const primary = { address: 'mina@office.test', primary: true };
  const sales = { address: 'sales@office.test', primary: false };
  const press = { address: 'press@office.test', primary: false };
  const identities = [sales, primary, press];

  test('the alias the mail was addressed to, in To or Cc, whatever its case', () => {
    assert.equal(answeringIdentity(identities, ['client@outside.test', 'Sales@Office.TEST']), sales);
    assert.equal(answeringIdentity(identities, ['team@office.test', ' press@office.test ']), press);
  });

  test('the first of the user’s addresses the mail names, in the order given (To, then Cc)', () => {
    assert.equal(answeringIdentity(identities, ['press@office.test', 'sales@office.test']), press);
    assert.equal(answeringIdentity(identities, ['mina@office.test', 'sales@office.test']), primary);
  });

  test('none of the user’s addresses: the primary, wherever it is listed', () => {
    assert.equal(answeringIdentity(identities, ['list@lists.test']), primary);
    assert.equal(answeringIdentity(identities, []), primary);
  });
});

describe('the signature compose keeps in a body', () => {
  const text = (signature: string) => (placement: 'aboveQuote' | 'end') => textSignatureSegment(signature, placement);
  const quote = 'On 1 Dec 2026, Ann <ann@outside.test> wrote:\n> Hello';
  const reply: SignatureSlot = { inserted: '', before: 'On 1 Dec 2026, Ann <ann@outside.test> wrote:' };

  test('a reply’s goes above the quote, under the "-- " line', () => {
    const placed = placeSignature(`\n\n${quote}`, reply, text('Mina Park\nSales'));
    assert.equal(placed?.body, `\n\n-- \nMina Park\nSales\n\n${quote}`);
    assert.deepEqual(placed?.slot, { inserted: '-- \nMina Park\nSales\n\n', before: reply.before });
  });

  test('a new mail’s goes at the end', () => {
    const placed = placeSignature('', { inserted: '', before: '' }, text('Mina'));
    assert.equal(placed?.body, '\n\n-- \nMina');
  });

  test('another identity’s signature takes its place while untouched, what the user wrote around it kept', () => {
    const first = placeSignature(`\n\n${quote}`, reply, text('Mina Park\nSales'));
    assert.ok(first);
    const written = `Thanks, Ann.${first.body}`;
    const swapped = placeSignature(written, first.slot, text('Press office'));
    assert.equal(swapped?.body, `Thanks, Ann.\n\n-- \nPress office\n\n${quote}`);
    const none = placeSignature(swapped?.body ?? '', swapped?.slot ?? reply, text(''));
    assert.equal(none?.body, `Thanks, Ann.\n\n${quote}`, 'an identity without a signature takes it out');
    assert.equal(
      placeSignature(none?.body ?? '', none?.slot ?? reply, text('Mina'))?.body,
      `Thanks, Ann.\n\n-- \nMina\n\n${quote}`,
      'and the next puts one back above the quote',
    );
  });

  test('an edited signature is the user’s: no swap', () => {
    const first = placeSignature('', { inserted: '', before: '' }, text('Mina'));
    assert.ok(first);
    for (const edited of ['Mina (on leave)', 'Dr Mina', 'Mi-na']) {
      assert.equal(placeSignature(first.body.replace('Mina', edited), first.slot, text('Press office')), null, edited);
    }
    const reply1 = placeSignature(`\n\n${quote}`, reply, text('Mina'));
    assert.ok(reply1);
    assert.equal(placeSignature(reply1.body.replace('Mina\n', 'Mina, Sales\n'), reply1.slot, text('Press office')), null);
  });

  test('a quote whose first line was edited away: a signature added goes at the end', () => {
    assert.equal(placeSignature('Just this.', reply, text('Mina'))?.body, 'Just this.\n\n-- \nMina');
  });

  test('the body without the signature is what the user wrote', () => {
    const placed = placeSignature('', { inserted: '', before: '' }, text('Mina'));
    assert.equal(withoutSignature(placed?.body ?? '', placed?.slot ?? null), '');
    assert.equal(withoutSignature('Hello', null), 'Hello');
  });
});
