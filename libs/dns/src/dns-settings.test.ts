import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '@letterbox/config';
import { dnsConfig } from './dns-settings';

test('unset, the system resolver is asked, 2 s a lookup', () => {
  const config = loadConfig(dnsConfig, {});
  assert.deepEqual(config, { DNS_SERVERS: [], DNS_TIMEOUT_MS: 2000, DNS_CACHE_ENTRIES: 10_000 });
});

test('DNS_SERVERS lists IP addresses with optional ports', () => {
  const config = loadConfig(dnsConfig, { DNS_SERVERS: '127.0.0.1:5354, 9.9.9.9,[::1]:53,2001:db8::53', DNS_TIMEOUT_MS: '500' });
  assert.deepEqual(config.DNS_SERVERS, ['127.0.0.1:5354', '9.9.9.9', '[::1]:53', '2001:db8::53']);
  assert.equal(config.DNS_TIMEOUT_MS, 500);
});

test('a server that is not an address, or a timeout of 0, stops the app naming the setting', () => {
  assert.throws(
    () => loadConfig(dnsConfig, { DNS_SERVERS: 'dns.example:53' }),
    (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /DNS_SERVERS: must be IP addresses .*\(got "dns.example:53"\)/);
      return true;
    },
  );
  assert.throws(() => loadConfig(dnsConfig, { DNS_SERVERS: '127.0.0.1:70000' }), /DNS_SERVERS/);
  assert.throws(() => loadConfig(dnsConfig, { DNS_TIMEOUT_MS: '0' }), /DNS_TIMEOUT_MS: .*\(got "0"\)/);
});
