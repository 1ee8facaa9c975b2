/**
 * The desktop's D-Bus session bus: a fixed socket in DESKTOP_DIR (desktop-launch.ts), the
 * box's own /tmp. desktop-launch.ts starts it with the desktop, sandbox_exec adds it while the
 * desktop runs (desktop-view.ts), and the AT-SPI helper reaches the apps through it.
 */
export const DESKTOP_BUS = 'unix:path=/tmp/sessionboxer-desktop/bus';
