import {
  BOX_HOST_COMMANDS,
  ISOLATION_COMMANDS,
  missingCommandsWarning,
  missingHostCommands,
} from '../host-commands';
import { findBwrapTools } from '../bubblewrap';

describe('the host programs boxes need', () => {
  it('lists the isolation programs findBwrapTools looks up, once each', () => {
    const names = BOX_HOST_COMMANDS.map((c) => c.command);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining([...ISOLATION_COMMANDS]));
    expect(Object.keys(findBwrapTools() ?? {}).sort()).toEqual([...ISOLATION_COMMANDS].sort());
  });

  it('names what is missing and what it is for, in one line', () => {
    const missing = missingHostCommands((name) =>
      ['xdotool', 'git'].includes(name) ? null : '/x',
    );
    expect(missing.map((c) => c.command)).toEqual(['xdotool', 'git']);
    expect(missingCommandsWarning(missing)).toBe(
      'boxes will lack xdotool (the desktop pointer and keys), git (repositories: clones, diffs, pushes): not found on the host (see docs/OPERATIONS.md for the packages)',
    );
    expect(missingCommandsWarning(missingHostCommands(() => '/x'))).toBeNull();
  });
});
