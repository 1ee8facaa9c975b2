import { ErrorCode, isDomainError } from '../kernel';
import { keyTokensToText } from './key-tokens';

describe('key tokens', () => {
  it('maps text, named keys and modifiers to what a terminal sends', () => {
    expect(keyTokensToText(['text:echo hi', 'enter'])).toBe('echo hi\r');
    expect(keyTokensToText(['ctrl:c', 'ctrl:D', 'ctrl:l', 'alt:f'])).toBe('\x03\x04\x0c\x1bf');
    expect(keyTokensToText(['up', 'down', 'right', 'left', 'tab', 'escape', 'backspace'])).toBe(
      '\x1b[A\x1b[B\x1b[C\x1b[D\t\x1b\x7f',
    );
    expect(keyTokensToText(['f1', 'f5', 'f12', 'pageup', 'delete', 'space'])).toBe(
      '\x1bOP\x1b[15~\x1b[24~\x1b[5~\x1b[3~ ',
    );
    expect(keyTokensToText(['text:', 'text:ünï ✓'])).toBe('ünï ✓');
  });

  it.each([['enterr'], ['ctrl:1'], ['ctrl:cc'], ['shift:a'], ['Text:x'], ['f13']])(
    'refuses the whole call for %s and names it',
    (bad) => {
      let error: unknown;
      try {
        keyTokensToText(['text:rm -rf', bad, 'enter']);
      } catch (e) {
        error = e;
      }
      expect(isDomainError(error) && error.code).toBe(ErrorCode.ValidationFailed);
      expect((error as Error).message).toContain(JSON.stringify(bad));
      expect((error as Error).message).toContain('nothing was sent');
    },
  );

  it('refuses an empty list or one that is not a list', () => {
    expect(() => keyTokensToText([])).toThrow(/1–1000 key tokens/);
    expect(() => keyTokensToText('enter')).toThrow(/list/);
  });
});
