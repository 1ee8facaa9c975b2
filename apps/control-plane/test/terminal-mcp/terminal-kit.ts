import WebSocket from 'ws';
import { TerminalMcpServer } from '../../src/terminal-mcp';
import { startApp, type RunningApp } from '../harness';
import { connectTerminalClient, type TerminalClient } from './mcp-client-kit';
import { startSshd, type Sshd } from './sshd-kit';

/** Polls until `check` answers something truthy. */
export async function until<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 20_000,
): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A control plane, a real sshd, an approver's socket and the endpoint's file key. */
export interface TerminalWorld {
  api: RunningApp;
  sshd: Sshd;
  mcpUrl: string;
  keyId: string;
  approver: WebSocket | null;
  connectApprover(): Promise<void>;
  disconnectApprover(): Promise<void>;
  client(scope?: string): Promise<TerminalClient>;
  /** Creates the sshd's endpoint through a client's manage_endpoints. */
  endpoint(client: TerminalClient): Promise<string>;
  stop(): Promise<void>;
}

export async function startTerminalWorld(env: Record<string, string> = {}): Promise<TerminalWorld> {
  const api = await startApp(undefined, { SESSIONBOXER_TERMINAL_MCP_LEASE_MS: '1000', ...env });
  const sshd = await startSshd();
  const mcpUrl = api.app.get(TerminalMcpServer).url as string;
  const key = await api.request('POST', '/api/terminals/keys', {
    name: 'proof',
    privateKey: sshd.clientKey,
  });
  if (key.status !== 201) throw new Error(`key refused: ${JSON.stringify(key.body)}`);
  const clients: TerminalClient[] = [];
  const world: TerminalWorld = {
    api,
    sshd,
    mcpUrl,
    keyId: (key.body as { keyId: string }).keyId,
    approver: null,
    async connectApprover() {
      const ws = new WebSocket(api.url.replace('http', 'ws') + '/api/ui', {
        headers: api.authHeaders,
      });
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      world.approver = ws;
    },
    async disconnectApprover() {
      const ws = world.approver;
      if (!ws) return;
      world.approver = null;
      await new Promise((resolve) => {
        ws.once('close', resolve);
        ws.close();
      });
    },
    async client(scope) {
      const c = await connectTerminalClient(mcpUrl, api.credentials, scope);
      clients.push(c);
      return c;
    },
    async endpoint(client) {
      const e = await client.call('shellwatch_manage_endpoints', {
        action: 'create',
        endpoint: {
          name: 'loopback sshd',
          host: '127.0.0.1',
          port: sshd.port,
          user: sshd.user,
          keyId: world.keyId,
        },
      });
      return (e as { endpointId: string }).endpointId;
    },
    async stop() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await world.disconnectApprover();
      await api.close();
      await sshd.stop();
    },
  };
  await world.connectApprover();
  return world;
}
