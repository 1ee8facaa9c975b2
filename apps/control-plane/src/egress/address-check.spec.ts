import { classifyAddress, isLocalAddress } from './address-check';

describe('the egress address classifier', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.0.0.2', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['10.1.2.3', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['169.254.169.254', 'the cloud metadata address'],
    ['169.254.1.1', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['fc00::1', 'a unique-local address'],
    ['fd12:3456::1', 'a unique-local address'],
    ['0.0.0.0', 'the unspecified address'],
    ['::', 'the unspecified address'],
    ['224.0.0.1', 'a multicast address'],
    ['ff02::1', 'a multicast address'],
    ['255.255.255.255', 'the broadcast address'],
    ['240.0.0.1', 'a reserved address'],
    ['192.0.2.1', 'a reserved address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:10.0.0.1', 'a private address'],
    ['::ffff:169.254.169.254', 'the cloud metadata address'],
    ['[::ffff:192.168.0.1]', 'a private address'],
    ['2002:a00:1::', 'a special-purpose address (6to4)'],
    ['64:ff9b::a00:1', 'a special-purpose address (rfc6052)'],
  ])('refuses %s as %s', (address, refusal) => {
    expect(classifyAddress(address)?.refusal).toBe(refusal);
  });

  it('passes public unicast, mapped IPv6 judged and connected as its IPv4', () => {
    expect(classifyAddress('8.8.8.8')).toEqual({
      address: '8.8.8.8',
      family: 4,
      range: 'unicast',
      refusal: null,
    });
    expect(classifyAddress('2606:4700::1')?.refusal).toBeNull();
    expect(classifyAddress('::ffff:8.8.8.8')).toMatchObject({ address: '8.8.8.8', family: 4 });
    expect(classifyAddress('172.32.0.1')?.refusal).toBeNull();
  });

  it('takes names and odd spellings of numbers for what they are not: addresses', () => {
    for (const text of ['example.com', '0x7f.1', '127.1', '2130706433', '', '1.2.3.4.5']) {
      expect(classifyAddress(text)).toBeNull();
    }
  });

  it('knows the addresses that reach this machine', () => {
    const interfaces = new Set(['192.0.2.10']);
    expect(isLocalAddress(classifyAddress('127.9.9.9')!, interfaces)).toBe(true);
    expect(isLocalAddress(classifyAddress('0.0.0.0')!, interfaces)).toBe(true);
    expect(isLocalAddress(classifyAddress('192.0.2.10')!, interfaces)).toBe(true);
    expect(isLocalAddress(classifyAddress('8.8.8.8')!, interfaces)).toBe(false);
  });
});
