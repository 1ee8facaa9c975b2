import { allowedBy, parseHostPattern, validAllowList } from './host-pattern';

describe('egress host patterns', () => {
  it('reads host:port and *.suffix:port, lowercased, without a trailing dot', () => {
    expect(parseHostPattern('API.Anthropic.com.:443')).toEqual({
      host: 'api.anthropic.com',
      wildcard: false,
      port: 443,
    });
    expect(parseHostPattern('*.githubusercontent.com:443')).toEqual({
      host: 'githubusercontent.com',
      wildcard: true,
      port: 443,
    });
  });

  it.each([
    ['no port', 'example.com'],
    ['port 0', 'example.com:0'],
    ['port too large', 'example.com:65536'],
    ['a wildcard in the middle', 'a.*.example.com:443'],
    ['a bare wildcard', '*:443'],
    ['a whole top-level domain', '*.com:443'],
    ['a scheme', 'https://example.com:443'],
    ['a path', 'example.com/x:443'],
    ['a label too long', `${'a'.repeat(64)}.com:443`],
    ['spaces', 'exa mple.com:443'],
    ['empty', ''],
  ])('refuses %s', (_why, text) => {
    expect(() => parseHostPattern(text)).toThrow(/host:port|top-level|at most/);
  });

  it('matches a name exactly, and a wildcard only below its suffix, on the same port', () => {
    const allow = ['api.anthropic.com:443', '*.githubusercontent.com:443', 'deb.debian.org:80'];
    expect(allowedBy(allow, 'api.anthropic.com', 443)).toBe('api.anthropic.com:443');
    expect(allowedBy(allow, 'API.ANTHROPIC.COM.', 443)).toBe('api.anthropic.com:443');
    expect(allowedBy(allow, 'api.anthropic.com', 80)).toBeNull();
    expect(allowedBy(allow, 'evil-api.anthropic.com', 443)).toBeNull();
    expect(allowedBy(allow, 'api.anthropic.com.evil.example', 443)).toBeNull();
    expect(allowedBy(allow, 'raw.githubusercontent.com', 443)).toBe('*.githubusercontent.com:443');
    expect(allowedBy(allow, 'a.b.githubusercontent.com', 443)).toBe('*.githubusercontent.com:443');
    expect(allowedBy(allow, 'githubusercontent.com', 443)).toBeNull();
    expect(allowedBy(allow, 'evilgithubusercontent.com', 443)).toBeNull();
    expect(allowedBy(allow, 'deb.debian.org', 80)).toBe('deb.debian.org:80');
    expect(allowedBy([], 'api.anthropic.com', 443)).toBeNull();
  });

  it('normalises a list, drops duplicates and names the wrong entry', () => {
    expect(validAllowList(['A.example:1', 'a.example:1', '*.b.example:2'])).toEqual([
      'a.example:1',
      '*.b.example:2',
    ]);
    expect(() => validAllowList(['ok.example:1', 'bad'])).toThrow(/allow\[1\]/);
    expect(() => validAllowList('a.example:1')).toThrow(/must be an array/);
    expect(() => validAllowList(Array.from({ length: 501 }, (_, i) => `h${i}.example:1`))).toThrow(
      /at most 500/,
    );
  });
});
