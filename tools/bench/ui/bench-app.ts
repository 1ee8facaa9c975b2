import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createApp, listen } from '../../../apps/control-plane/src/app.factory';
import { loadConfig } from '../../../apps/control-plane/src/config';

/** A control plane for a UI bench: its URL, its sign-in, an admin API client, and close(). */
export interface BenchApp {
  base: string;
  credentials: { username: string; password: string };
  api(method: string, route: string, body?: unknown): Promise<any>;
  /** Stops the app and removes its data dir. */
  close(): Promise<void>;
}

/** Starts one on a fresh data dir (on 127.0.0.1, a free port) with a random password. */
export async function startBenchApp(
  prefix: string,
  env: Record<string, string> = {},
): Promise<BenchApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const credentials = { username: 'admin', password: `bench-${randomUUID()}` };
  const config = loadConfig({
    SESSIONBOXER_PORT: '0',
    SESSIONBOXER_DATA_DIR: dataDir,
    SESSIONBOXER_ADMIN_USER: credentials.username,
    SESSIONBOXER_ADMIN_PASSWORD: credentials.password,
    ...env,
  });
  const app = await createApp(config, { logger: ['error'] });
  const close = async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const base = await listen(app, config);
    const signedIn = await fetch(base + '/api/auth/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    });
    if (signedIn.status !== 200) throw new Error(`sign-in answered ${signedIn.status}`);
    const { token } = (await signedIn.json()) as { token: string };
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const api = async (method: string, route: string, body?: unknown): Promise<any> => {
      const res = await fetch(base + route, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status >= 300)
        throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    return { base, credentials, api, close };
  } catch (e) {
    await close();
    throw e;
  }
}
