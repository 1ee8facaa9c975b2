/**
 * The live view's part of `npm run bench:sandbox-desktop`: a view token's WebSocket to
 * /api/sandbox-view (the path the watch page's noVNC uses: the control plane's relay to an
 * x11vnc in the sandbox's box), spoken to as RFB like noVNC does (incremental updates). Each
 * round clicks the toggle page through sandbox_input and waits for the update that covers the
 * clicked point. Goal (issue 17): frame latency p50 < 150 ms.
 */
import { WebSocket } from 'ws';
import { RfbProbe, webSocketWire } from '../../apps/box-agent/src/desktop-view/test/rfb-probe';
import { TOKEN_PROTOCOL } from '../../apps/control-plane/src/sandboxes/watch/sandbox-viewer';

type Call = (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

export interface WatchLatency {
  /** From the input answered (the page has the click) to the update's last byte. */
  fromAnswer: number[];
  /** From the input sent: the whole round, an upper bound. */
  fromSent: number[];
}

export async function watchLatency(
  url: string,
  ok: Call,
  sandbox: string,
  at: { x: number; y: number },
  rounds: number,
): Promise<WatchLatency> {
  const { token } = (await ok('sandbox_create_token', { sandbox, abilities: ['view'] })) as {
    token: string;
  };
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/sandbox-view?sandbox=${sandbox}`, [
    TOKEN_PROTOCOL,
  ]);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(token);
  try {
    const rfb = new RfbProbe(webSocketWire(ws));
    await rfb.handshake();
    rfb.requestUpdate(false);
    await rfb.update();
    const covers = (r: { x: number; y: number; w: number; h: number }) =>
      r.x <= at.x && at.x < r.x + r.w && r.y <= at.y && at.y < r.y + r.h;
    const out: WatchLatency = { fromAnswer: [], fromSent: [] };
    for (let i = 0; i < rounds + 3; i++) {
      rfb.requestUpdate(true);
      const sent = performance.now();
      await ok('sandbox_input', { sandbox, action: 'click', ...at });
      const answered = performance.now();
      for (;;) {
        const rects = await rfb.update();
        if (rects.some(covers)) break;
        rfb.requestUpdate(true);
      }
      const seen = performance.now();
      if (i < 3) continue; // warm-up
      out.fromAnswer.push(seen - answered);
      out.fromSent.push(seen - sent);
    }
    return out;
  } finally {
    ws.close();
  }
}
