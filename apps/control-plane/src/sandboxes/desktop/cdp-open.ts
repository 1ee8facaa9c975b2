import type { BoxDriver } from '../../boxes';
import { DEVTOOLS_PORT, runInBox } from './desktop-launch';

/**
 * In a script run in the box, `connectDevtools(port)`: Chromium's browser WebSocket, once its
 * DevTools answer (Chromium may still be starting: start waits for the screen only), up to 30 s.
 * Node's WebSocket (a flag on Node 20). Shared by cdp-open.ts and a11y/box-cdp.ts.
 */
export const CONNECT_DEVTOOLS = `
async function connectDevtools(port) {
  let version;
  for (let i = 0; !version; i++) {
    try {
      version = await (await fetch('http://127.0.0.1:' + port + '/json/version')).json();
    } catch (e) {
      if (i >= 600) throw new Error('the browser DevTools did not answer within 30 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const ws = new WebSocket(version.webSocketDebuggerUrl);
  await new Promise((ok, fail) => {
    ws.onopen = ok;
    ws.onerror = () => fail(new Error('cannot reach the browser over DevTools'));
  });
  return ws;
}
`;

/**
 * Opens each URL as a new tab through Chromium's DevTools protocol (`Target.createTarget` on
 * the browser's WebSocket), from inside the box: its DevTools listen on the box's own
 * 127.0.0.1, which the control plane cannot reach. Node's WebSocket (a flag on Node 20); the
 * URLs arrive on stdin as JSON (never in an argv, where a URL's token would show in ps).
 */
const OPEN = `
const port = process.argv[1];
${CONNECT_DEVTOOLS}
(async () => {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  const urls = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const ws = await connectDevtools(port);
  const pending = new Map();
  let next = 0;
  ws.onmessage = (m) => {
    const r = JSON.parse(m.data);
    const p = pending.get(r.id);
    if (!p) return;
    pending.delete(r.id);
    if (r.error) p.fail(new Error(r.error.message));
    else p.ok(r.result);
  };
  const send = (method, params) =>
    new Promise((ok, fail) => {
      const id = ++next;
      pending.set(id, { ok, fail });
      ws.send(JSON.stringify({ id, method, params }));
    });
  for (const url of urls) await send('Target.createTarget', { url });
  ws.close();
})().then(
  () => process.exit(0),
  (e) => { process.stderr.write(String(e && e.message ? e.message : e)); process.exit(1); },
);
`;

export async function openUrls(driver: BoxDriver, sandboxId: string, urls: string[]) {
  const argv = [
    process.execPath,
    '--experimental-websocket',
    '--no-warnings',
    '-e',
    OPEN,
    String(DEVTOOLS_PORT),
  ];
  const r = await runInBox(driver, sandboxId, argv, {}, JSON.stringify(urls));
  if (r.code !== 0) throw new Error(`Chromium did not open the URLs: ${r.stderr.trim()}`);
}
