import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { WebSocket, WebSocketServer } from 'ws';
import { AuthService } from '../auth/auth.service';
import { loadConfig } from '../config';
import { SqliteSharedState } from '../infrastructure/shared-state';
import { SIGNED_OUT, UiSignIns } from './ui-sign-ins';

describe('UI sockets end with their sign-in and their browser (real sign-ins, real ws sockets)', () => {
  let server: WebSocketServer;
  let auth: AuthService;
  let dataDir: string;
  let signIns: UiSignIns;
  const clients: WebSocket[] = [];
  const token = async (): Promise<string> =>
    `Bearer ${(await auth.signIn('admin', 'a-good-password', { address: 'test', headers: {} })).token}`;

  let state: SqliteSharedState;

  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-ui-signins-'));
    state = new SqliteSharedState(path.join(dataDir, 'shared.sqlite'));
    auth = new AuthService(
      loadConfig({
        SESSIONBOXER_DATA_DIR: dataDir,
        SESSIONBOXER_ADMIN_PASSWORD: 'a-good-password',
      }),
      state,
    );
    await auth.onModuleInit();
    signIns = new UiSignIns(auth);
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    server.on('connection', (socket, req) => signIns.join(socket, req.headers));
    await new Promise((r) => server.once('listening', r));
  });
  afterEach(async () => {
    signIns.onModuleDestroy();
    clients.forEach((c) => c.terminate());
    await new Promise((r) => server.close(r));
    await state.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function open(token: string, autoPong = true): Promise<WebSocket> {
    const { port } = server.address() as AddressInfo;
    const ws = new WebSocket(`ws://127.0.0.1:${port}`, {
      headers: { authorization: token },
      autoPong,
    });
    clients.push(ws);
    await new Promise((r) => ws.once('open', r));
    return ws;
  }
  const closed = (ws: WebSocket) => new Promise<number>((r) => ws.once('close', (code) => r(code)));

  it('closes the sockets of a sign-in that was signed out, and only those', async () => {
    const mineToken = await token();
    const mine = await open(mineToken);
    const theirs = await open(await token());
    const done = closed(mine);
    await auth.signOut({ authorization: mineToken });
    expect(await done).toBe(SIGNED_OUT);
    expect(theirs.readyState).toBe(WebSocket.OPEN);
  });

  it('drops a browser that does not answer a ping by the next round, keeps one that does', async () => {
    const silent = await open(await token(), false);
    const alive = await open(await token());
    const gone = closed(silent);
    signIns.sweep();
    // Give the live one's pong time to arrive before the next round.
    await new Promise((r) => alive.once('ping', () => setTimeout(r, 100)));
    signIns.sweep();
    expect(await gone).toBe(1006);
    expect(alive.readyState).toBe(WebSocket.OPEN);
  });
});
