import * as fs from 'node:fs';
import * as path from 'node:path';
import { BOX_EDGE } from '@sessionboxer/mcp-adapters';
import type { BoxDriver } from '../boxes';

/** In the sandbox's run folder: the port the forwarder listens on, and its pid (in the box). */
export const EDGE_PORT_FILE = 'edge.port';
const PID_FILE = 'edge.pid';

/**
 * The forwarder: pipes each connection to 127.0.0.1:<port> in the box to the edge socket, then
 * writes its pid and port. A port already taken (one started earlier that still listens)
 * is as good: its port is written and this one leaves.
 */
const FORWARDER = [
  "const net = require('net'), fs = require('fs');",
  'const [sock, port, portFile, pidFile] = process.argv.slice(1);',
  'const server = net.createServer((c) => {',
  '  const u = net.connect(sock);',
  "  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());",
  '  c.pipe(u); u.pipe(c);',
  '});',
  "server.on('error', (e) => { if (e.code === 'EADDRINUSE') fs.writeFileSync(portFile, port); process.exit(0); });",
  "server.listen(Number(port), '127.0.0.1', () => {",
  '  fs.writeFileSync(pidFile, String(process.pid));',
  '  fs.writeFileSync(portFile, String(server.address().port));',
  '});',
].join('\n');

/**
 * Starts it in the background unless one runs: constant script, its paths as arguments. The
 * background process is no child of the exec (whose parent-death signal ends with the control
 * plane), so it lives as long as the box, across control-plane restarts.
 */
const START = [
  'if [ -s "$5" ] && [ -f "$6" ] && kill -0 "$(cat "$6")" 2>/dev/null; then exit 0; fi',
  'rm -f "$5" "$6"',
  '( "$1" -e "$2" "$3" "$4" "$5" "$6" </dev/null >/dev/null 2>&1 & )',
].join('\n');

/**
 * The way a sandbox's agent reaches its edge socket (see SandboxEdge): started at its first
 * turn, so a sandbox that runs no agent pays nothing. Resolves with the port once it listens,
 * or null after 5 s.
 */
export async function ensureForwarder(
  driver: BoxDriver,
  sandboxId: string,
  runDir: string,
): Promise<number | null> {
  const inBox = driver.isolation === 'bubblewrap' ? path.posix.dirname(BOX_EDGE.socket) : runDir;
  const port = driver.isolation === 'bubblewrap' ? String(BOX_EDGE.port) : '0';
  const argv = [
    '/bin/sh',
    '-c',
    START,
    'sandbox-forwarder',
    process.execPath,
    FORWARDER,
    path.join(inBox, path.basename(BOX_EDGE.socket)),
    port,
    path.join(inBox, EDGE_PORT_FILE),
    path.join(inBox, PID_FILE),
  ];
  const child = driver.exec(sandboxId, argv, {});
  child.stdin?.end();
  child.stdout?.resume();
  child.stderr?.resume();
  await new Promise((resolve) => child.once('close', resolve));
  const file = path.join(runDir, EDGE_PORT_FILE);
  for (let i = 0; i < 100; i++) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (/^\d+$/.test(text)) return Number(text);
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}
