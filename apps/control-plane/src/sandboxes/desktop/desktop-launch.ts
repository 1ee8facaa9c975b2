import type { BoxDriver } from '../../boxes';
import { xvfbArgs } from '../../../../box-agent/src/desktop/display';
import { closeAtspi } from './atspi/atspi-helper';
import { DESKTOP_BUS } from './atspi/bus';

/**
 * Starting and stopping a sandbox's desktop processes inside its box: Xvfb, a D-Bus session
 * bus with the AT-SPI bus on it (GTK programs sandbox_exec starts register there: atspi/),
 * then Chromium with DevTools on 127.0.0.1:9222. Each runs in a session of its own (setsid: one kill of its
 * group ends Chromium's helpers too), in the background, so it is no child of the exec (whose
 * parent-death signal ends with the control plane) and lives as long as the box. Constant
 * scripts; every value is an argument.
 */

export const DEVTOOLS_PORT = 9222;
export const CHROMIUM = '/usr/bin/chromium';
/** The box's own tmpfs: pids, readiness, logs and the browser profile (not the workspace). */
export const DESKTOP_DIR = '/tmp/sessionboxer-desktop';
export { DESKTOP_BUS };
const ATSPI_BUS_LAUNCHER = '/usr/libexec/at-spi-bus-launcher';
const READY_TIMEOUT_TICKS = 3000; // × 10 ms

const ALIVE = 'alive() { [ -f "$d/$1.pid" ] && kill -0 "$(cat "$d/$1.pid")" 2>/dev/null; }';

/**
 * $1 dir, $2 name (xvfb, dbus, atspi or chromium), then the program's argv. Xvfb and the
 * session bus are waited for until they write on fd 3 (-displayfd, --print-address=3);
 * Chromium and the AT-SPI bus are not: DevTools are waited for where they are first used
 * (cdp-open.ts), and the session bus starts the AT-SPI bus itself if an app asks first.
 */
const START = [
  'd=$1; n=$2; shift 2; mkdir -p "$d"; ready="$d/$n.ready"',
  ALIVE,
  'alive "$n" && exit 0',
  'rm -f "$ready"',
  // A socket a dead bus left would keep the new one from listening.
  '[ "$n" = dbus ] && rm -f "$d/bus"',
  'if [ "$n" = xvfb ] || [ "$n" = dbus ]; then',
  '  ( exec setsid "$@" 3>"$ready" </dev/null >/dev/null 2>"$d/$n.log" ) &',
  'else',
  '  ( exec setsid "$@" </dev/null >/dev/null 2>"$d/$n.log" ) &',
  'fi',
  'echo $! > "$d/$n.pid"',
  // The screen is what start waits for; DevTools are waited for by their first use.
  '{ [ "$n" = chromium ] || [ "$n" = atspi ]; } && exit 0',
  'i=0',
  'until [ -s "$ready" ]; do',
  '  alive "$n" || { echo "$n exited: $(tail -n 3 "$d/$n.log" | tr "\\n" " ")" >&2; exit 1; }',
  `  i=$((i + 1)); [ "$i" -gt ${READY_TIMEOUT_TICKS} ] && { echo "$n not ready: $(tail -n 3 "$d/$n.log" | tr "\\n" " ")" >&2; exit 1; }`,
  '  sleep 0.01',
  'done',
].join('\n');

/** $1 dir: TERM to each group, KILL after 2 s. */
const STOP = [
  'd=$1',
  ALIVE,
  'all="chromium atspi dbus xvfb"',
  'any() { for n in $all; do alive "$n" && return 0; done; return 1; }',
  'for n in $all; do alive "$n" && kill -TERM "-$(cat "$d/$n.pid")" 2>/dev/null; done',
  'i=0',
  'while any && [ "$i" -lt 200 ]; do sleep 0.01; i=$((i + 1)); done',
  'for n in $all; do alive "$n" && kill -KILL "-$(cat "$d/$n.pid")" 2>/dev/null; rm -f "$d/$n.pid"; done',
  'rm -f "$d/bus"',
  'exit 0',
].join('\n');

/** $1 dir: "xvfb chromium" for those alive. */
const STATUS = [
  'd=$1',
  ALIVE,
  'out=""; for n in xvfb chromium; do alive "$n" && out="$out $n"; done; echo "$out"',
].join('\n');

export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runInBox(
  driver: BoxDriver,
  sandboxId: string,
  argv: string[],
  env: Record<string, string> = {},
  input = '',
): Promise<ScriptResult> {
  return new Promise((resolve, reject) => {
    const child = driver.exec(sandboxId, argv, { env });
    let stdout = '';
    let stderr = '';
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input);
    child.stdout?.setEncoding('utf8').on('data', (t: string) => (stdout += t));
    child.stderr
      ?.setEncoding('utf8')
      .on('data', (t: string) => (stderr = (stderr + t).slice(-4000)));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function chromiumArgs(width: number, height: number): string[] {
  return [
    CHROMIUM,
    // Root in a box without CAP_SYS_ADMIN: Chromium's own sandbox cannot start; the box is it.
    '--no-sandbox',
    '--test-type',
    `--remote-debugging-address=127.0.0.1`,
    `--remote-debugging-port=${DEVTOOLS_PORT}`,
    `--user-data-dir=${DESKTOP_DIR}/chromium`,
    '--no-first-run',
    '--no-default-browser-check',
    '--password-store=basic',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-features=Translate,MediaRouter',
    '--noerrdialogs',
    // Builds the renderer's accessibility tree from the start: CDP's Accessibility domain reads it.
    '--force-renderer-accessibility',
    '--hide-crash-restore-bubble',
    '--window-position=0,0',
    `--window-size=${width},${height}`,
    'about:blank',
  ];
}

function started(what: string, result: ScriptResult): void {
  if (result.code !== 0) {
    throw new Error(`${what} did not start: ${result.stderr.trim() || `exit ${result.code}`}`);
  }
}

/**
 * Xvfb, the session bus and the AT-SPI bus, then Chromium, each started unless it runs;
 * resolves once the screen and the session bus are up and Chromium started (its DevTools
 * listen a moment later: open_url waits for them). Chromium gets no session bus: CDP reads
 * it, so it stays out of the AT-SPI tree.
 */
export async function startDesktop(
  driver: BoxDriver,
  sandboxId: string,
  display: string,
  size: { width: number; height: number },
): Promise<void> {
  const sh = ['/bin/sh', '-c', START, 'sandbox-desktop', DESKTOP_DIR];
  const xvfb = ['Xvfb', ...xvfbArgs(display, size)];
  started('Xvfb', await runInBox(driver, sandboxId, [...sh, 'xvfb', ...xvfb]));
  const dbus = ['dbus-daemon', '--session', '--nofork', `--address=${DESKTOP_BUS}`];
  started(
    'D-Bus',
    await runInBox(driver, sandboxId, [...sh, 'dbus', ...dbus, '--print-address=3']),
  );
  const bus = { DBUS_SESSION_BUS_ADDRESS: DESKTOP_BUS };
  const atspi = [...sh, 'atspi', ATSPI_BUS_LAUNCHER, '--launch-immediately'];
  started('AT-SPI', await runInBox(driver, sandboxId, atspi, bus));
  const chromium = [...sh, 'chromium', ...chromiumArgs(size.width, size.height)];
  started('Chromium', await runInBox(driver, sandboxId, chromium, { DISPLAY: display }));
}

export async function stopDesktop(driver: BoxDriver, sandboxId: string): Promise<void> {
  closeAtspi(driver, sandboxId);
  await runInBox(driver, sandboxId, ['/bin/sh', '-c', STOP, 'sandbox-desktop', DESKTOP_DIR]);
}

/** Which of the desktop's processes are alive in the box. */
export async function desktopProcesses(
  driver: BoxDriver,
  sandboxId: string,
): Promise<{ xvfb: boolean; chromium: boolean }> {
  const r = await runInBox(driver, sandboxId, [
    '/bin/sh',
    '-c',
    STATUS,
    'sandbox-desktop',
    DESKTOP_DIR,
  ]);
  const names = r.stdout.trim().split(/\s+/);
  return { xvfb: names.includes('xvfb'), chromium: names.includes('chromium') };
}
