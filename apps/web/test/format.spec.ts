import { plural, safeUrl } from '../src/format';

describe('links from agent and forge data', () => {
  it('keeps http(s) URLs and drops every other scheme', () => {
    expect(safeUrl('https://github.com/acme/widgets/pull/12')).toBe(
      'https://github.com/acme/widgets/pull/12',
    );
    expect(safeUrl('http://127.0.0.1:3000/x')).toBe('http://127.0.0.1:3000/x');
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl(' JavaScript:alert(1)')).toBeNull();
    expect(safeUrl('data:text/html,<script>alert(1)</script>')).toBeNull();
    expect(safeUrl('/relative/path')).toBeNull();
    expect(safeUrl('')).toBeNull();
    expect(safeUrl(null)).toBeNull();
  });

  it('counts in words', () => {
    expect(plural(1, 'review item')).toBe('1 review item');
    expect(plural(3, 'review item')).toBe('3 review items');
  });
});
