import { MASK, maskSecrets } from './secret-masker';

describe('maskSecrets', () => {
  const key = 'sk-ant-api03-abcdefghijklmnop';

  it('masks every occurrence in every string of a JSON value, keys included', () => {
    const value = {
      text: `use ${key} and again ${key}`,
      list: [key, 1, true, null],
      nested: { [key]: { deeper: `x${key}y` } },
    };
    expect(maskSecrets(value, [key])).toEqual({
      text: `use ${MASK} and again ${MASK}`,
      list: [MASK, 1, true, null],
      nested: { [MASK]: { deeper: `x${MASK}y` } },
    });
  });

  it('masks the longer of two overlapping secrets whole', () => {
    const short = 'abcdefghij';
    const long = `${short}-klmnop`;
    expect(maskSecrets(`a ${long} b ${short}`, [short, long])).toBe(`a ${MASK} b ${MASK}`);
  });

  it('leaves values shorter than 8 characters alone (they would mangle ordinary text)', () => {
    expect(maskSecrets('the key is 1234567', ['1234567'])).toBe('the key is 1234567');
  });

  it('returns the value untouched when there is no secret, and never changes its input', () => {
    const input = { text: key };
    expect(maskSecrets(input, [])).toBe(input);
    maskSecrets(input, [key]);
    expect(input.text).toBe(key);
  });
});
