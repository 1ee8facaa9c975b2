/**
 * Every program a box needs from the host, with what it is for: boxes see the host's `/usr`
 * read-only, so what the host lacks a box lacks too. This is the one list: the driver looks
 * them up at start (the isolation ones decide bubblewrap, see findBwrapTools; any other one
 * missing is logged with what will fail), and the image test (tools/test/image.spec.ts)
 * fails until the Dockerfile installs the Debian package of each. Programs every Debian
 * system has (sh, cp, find, chown, du) are not listed.
 */
import { findExecutable } from './host';

/** What the driver runs on the host to make, enter and hold a box's namespaces. */
export const ISOLATION_COMMANDS = ['bwrap', 'nsenter', 'setpriv', 'unshare'] as const;

export const BOX_HOST_COMMANDS: readonly { command: string; for: string }[] = [
  ...ISOLATION_COMMANDS.map((command) => ({ command, for: 'bubblewrap isolation' })),
  { command: 'Xvfb', for: 'the desktop display' },
  { command: 'xdotool', for: 'the desktop pointer and keys' },
  { command: 'xwd', for: 'desktop screenshots' },
  { command: 'ffmpeg', for: 'recordings' },
  { command: 'ffprobe', for: 'recordings' },
  { command: 'espeak-ng', for: 'narration' },
  { command: 'chromium', for: 'the browser on the desktop' },
  { command: 'xterm', for: 'terminal windows on the desktop' },
  { command: 'git', for: 'repositories: clones, diffs, pushes' },
];

export function isIsolationCommand(command: string): boolean {
  return (ISOLATION_COMMANDS as readonly string[]).includes(command);
}

/** The listed programs this host does not have. */
export function missingHostCommands(
  find: (name: string) => string | null = (name) => findExecutable(name),
): { command: string; for: string }[] {
  return BOX_HOST_COMMANDS.filter((c) => find(c.command) === null);
}

/** One line for the start-up log, or null when nothing is missing. */
export function missingCommandsWarning(missing: { command: string; for: string }[]): string | null {
  if (missing.length === 0) return null;
  const what = missing.map((c) => `${c.command} (${c.for})`).join(', ');
  return `boxes will lack ${what}: not found on the host (see docs/OPERATIONS.md for the packages)`;
}
