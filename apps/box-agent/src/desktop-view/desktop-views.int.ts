import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { startTestX, type TestX } from '../desktop/test/x-server';
import type { Log } from '../log';
import { DesktopViewError, DesktopViews } from './desktop-views';
import { RfbProbe, socketWire } from './test/rfb-probe';

const warnings: string[] = [];
const log: Log = {
  info: () => undefined,
  warn: (m) => warnings.push(m),
  error: (m) => warnings.push(m),
};

/** The control plane's side, reduced: accepts connections and hands each over with its header. */
function listen(socketPath: string) {
  const arrivals: Array<{ viewId: string; socket: net.Socket }> = [];
  let notify: (() => void) | null = null;
  const server = net.createServer((socket) => {
    let head = Buffer.alloc(0);
    const onData = (d: Buffer) => {
      head = Buffer.concat([head, d]);
      const nl = head.indexOf(10);
      if (nl < 0) return;
      socket.off('data', onData);
      socket.pause();
      const rest = head.subarray(nl + 1);
      if (rest.length) socket.unshift(rest);
      arrivals.push({ viewId: head.subarray(0, nl).toString(), socket });
      notify?.();
    };
    socket.on('error', () => undefined); // a view ended by the box resets it
    socket.on('data', onData);
  });
  const next = async () => {
    while (arrivals.length === 0) await new Promise<void>((r) => (notify = r));
    return arrivals.shift()!;
  };
  return { server, next, ready: new Promise<void>((r) => server.listen(socketPath, r)) };
}

/** How many x11vnc processes serve `display` now. */
function x11vncs(display: string): Promise<number> {
  return new Promise((resolve) => {
    execFile('pgrep', ['-f', `x11vnc -inetd -display ${display} `], (e, out) =>
      resolve(e ? 0 : out.trim().split('\n').length),
    );
  });
}

async function pointer(x: TestX): Promise<string> {
  return (await x.xdotool(['getmouselocation'])).trim();
}

describe('DesktopViews: one x11vnc per view, piped to the control plane', () => {
  let x: TestX;
  let dir: string;
  let side: ReturnType<typeof listen>;
  let views: DesktopViews;

  beforeAll(async () => {
    x = await startTestX({ width: 640, height: 480 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desktop-view-'));
    side = listen(path.join(dir, 'desktop-view.sock'));
    await side.ready;
    views = new DesktopViews({
      display: x.display,
      socketPath: path.join(dir, 'desktop-view.sock'),
      log,
    });
  });

  afterAll(async () => {
    views.closeAll();
    await new Promise<void>((r) => side.server.close(() => r()));
    await x.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a view with control speaks RFB for the display and moves its pointer', async () => {
    const viewId = randomUUID();
    await views.open(viewId, true);
    const arrival = await side.next();
    expect(arrival.viewId).toBe(viewId);
    arrival.socket.resume();
    const rfb = new RfbProbe(socketWire(arrival.socket));
    await rfb.handshake();
    expect([rfb.width, rfb.height]).toEqual([640, 480]);
    expect(await rfb.frame()).toMatchObject({ type: 0 });
    rfb.pointer(123, 45);
    let where = '';
    for (let i = 0; i < 50 && !where.startsWith('x:123 y:45'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      where = await pointer(x);
    }
    expect(where).toMatch(/^x:123 y:45 /);
    // The person left: x11vnc sees its viewer gone and the view ends by itself.
    arrival.socket.destroy();
    for (let i = 0; i < 250 && views.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(views.size).toBe(0);
  });

  it('a view without control sees the screen, but its pointer never reaches the display', async () => {
    await x.xdotool(['mousemove', '10', '10']);
    const viewId = randomUUID();
    await views.open(viewId, false);
    const arrival = await side.next();
    arrival.socket.resume();
    const rfb = new RfbProbe(socketWire(arrival.socket));
    await rfb.handshake();
    expect(await rfb.frame()).toMatchObject({ type: 0 });
    rfb.pointer(300, 200);
    // A frame after the pointer event: x11vnc has read (and dropped) it by then.
    expect(await rfb.frame()).toMatchObject({ type: 0 });
    await new Promise((r) => setTimeout(r, 300));
    expect(await pointer(x)).toMatch(/^x:10 y:10 /);
    views.close(viewId);
  });

  it("the control plane's close ends a view before its handshake, x11vnc included", async () => {
    const viewId = randomUUID();
    await views.open(viewId, false);
    const arrival = await side.next();
    expect(views.size).toBe(1);
    expect(await x11vncs(x.display)).toBe(1);
    arrival.socket.destroy();
    views.close(viewId);
    expect(views.size).toBe(0);
    for (let i = 0; i < 100 && (await x11vncs(x.display)) > 0; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await x11vncs(x.display)).toBe(0);
    expect(warnings).toEqual([]);
  });

  it('a box without a display, or an unreachable control plane, is refused with a reason', async () => {
    const none = new DesktopViews({ display: undefined, socketPath: path.join(dir, 'x'), log });
    await expect(none.open(randomUUID(), false)).rejects.toThrow(/runs no desktop/);
    const gone = new DesktopViews({
      display: x.display,
      socketPath: path.join(dir, 'missing.sock'),
      log,
    });
    await expect(gone.open(randomUUID(), false)).rejects.toBeInstanceOf(DesktopViewError);
    expect(gone.size).toBe(0);
  });
});
