import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isNonPublicAddress, literalAddress } from '../../src/http/outbound.js';

describe('the outbound client\'s address rule', () => {
  it('refuses private, loopback, link-local, shared, multicast and documentation addresses, IPv4-mapped ones included', () => {
    for (const address of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '192.0.2.1', '::1', '::', 'fd00::1', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.1.1.1', '2001:db8::1', 'not-an-address']) {
      assert.equal(isNonPublicAddress(address), true, address);
    }
  });

  it('lets public addresses through', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '::ffff:808:808']) {
      assert.equal(isNonPublicAddress(address), false, address);
    }
  });

  it('reads an address in a URL, and nothing from a name', () => {
    assert.equal(literalAddress(new URL('http://[::1]:8080/x')), '::1');
    assert.equal(literalAddress(new URL('http://127.0.0.1/')), '127.0.0.1');
    assert.equal(literalAddress(new URL('http://2130706433/')), '127.0.0.1', 'the URL parser normalises a decimal IPv4 address');
    assert.equal(literalAddress(new URL('https://localhost/')), undefined);
  });
});
