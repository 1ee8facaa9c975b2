import { isKeyName, isModifier, KEYSYMS, parseKeys, suggestKey } from './keysyms';

describe('key names', () => {
  it.each([
    'a', 'Z', '0', 'F1', 'F35', 'Return', 'Escape', 'Tab', 'BackSpace', 'Delete', 'Home', 'End',
    'Page_Up', 'Page_Down', 'Up', 'Down', 'Left', 'Right', 'space', 'slash', 'bracketleft',
    'KP_Enter', 'XF86AudioMute', 'Shift_L', 'Control_R', 'Super_L', 'U20AC',
  ])('accepts the keysym %s', (name) => {
    expect(isKeyName(name)).toBe(true);
  }); // prettier-ignore

  it.each(['ctrl', 'Ctrl', 'CONTROL', 'alt', 'shift', 'super', 'meta', 'Alt_L'])(
    'takes %s as a modifier, ignoring case where xdotool does',
    (name) => expect(isModifier(name)).toBe(true),
  );

  it.each(['F36', 'F0', 'return', 'Enter', 'esc', '/', 'é', 'ctrl ', '', 'Hyper', 'U12'])(
    'refuses %j, which xdotool would silently ignore',
    (name) => expect(isKeyName(name)).toBe(false),
  );

  it('suggests the keysym an agent meant', () => {
    expect(suggestKey('Enter')).toBe('Return');
    expect(suggestKey('return')).toBe('Return');
    expect(suggestKey('ESC')).toBe('Escape');
    expect(suggestKey('pageup')).toBe('Page_Up');
    expect(suggestKey('backspace')).toBe('BackSpace');
    expect(suggestKey('cmd')).toBe('super');
    expect(suggestKey('/')).toBe('slash');
    expect(suggestKey('Arrow_Up')).toBe('Up');
    expect(suggestKey('qwerty')).toBeUndefined();
  });

  it.each([
    ['Retrun', 'Return'],
    ['Escpae', 'Escape'],
    ['Pgae_Down', 'Page_Down'],
    ['backspcae', 'BackSpace'],
    ['Tabb', 'Tab'],
    ['ctlr', 'ctrl'],
    ['shfit', 'shift'],
    ['entr', 'Return'],
    ['F5x', 'F5'],
    ['Hyper', 'Hyper_L'],
    ['XF86AudioMut', 'XF86AudioMute'],
  ])('suggests the nearest name for the typo %j: %s', (typo, meant) => {
    expect(suggestKey(typo)).toBe(meant);
  });

  it.each(['qwerty', 'qq', 'zzzzzz', 'é', 'Shift_Lock'])('suggests nothing far from %j', (name) => {
    expect(suggestKey(name)).toBeUndefined();
  });

  it('ships no name twice-by-case that a suggestion could confuse', () => {
    const folded = [...KEYSYMS].filter((k) => k.length > 1).map((k) => k.toLowerCase());
    expect(new Set(folded).size).toBe(folded.length);
  });
});

describe('parseKeys', () => {
  it('splits presses on spaces and keys on +', () => {
    expect(parseKeys('ctrl+a Delete')).toEqual({ presses: [['ctrl', 'a'], ['Delete']] });
    expect(parseKeys('  ctrl+shift+t  ')).toEqual({ presses: [['ctrl', 'shift', 't']] });
    expect(parseKeys('alt+Tab   alt+Tab')).toEqual({
      presses: [
        ['alt', 'Tab'],
        ['alt', 'Tab'],
      ],
    });
  });

  it('says why a text is not keys', () => {
    expect(parseKeys('')).toEqual({ error: 'names no key' });
    expect(parseKeys('ctrl+')).toEqual({
      error: '"ctrl+" has an empty key name (write + as "plus")',
    });
    expect(parseKeys('ctrl+Enter')).toEqual({
      error: 'unknown key "Enter" (did you mean Return?)',
    });
    expect(parseKeys('ctrl+Retrun')).toEqual({
      error: 'unknown key "Retrun" (did you mean Return?)',
    });
    expect(parseKeys('ctrl+qq')).toMatchObject({
      error: expect.stringMatching(/^unknown key "qq" \(use X keysym names/),
    });
  });

  it('takes only modifiers for the click tools', () => {
    expect(parseKeys('ctrl+shift', true)).toEqual({ presses: [['ctrl', 'shift']] });
    expect(parseKeys('shift+a', true)).toEqual({
      error: '"a" is not a modifier (ctrl, alt, shift, super, meta)',
    });
  });
});
