import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { createApp, listen } from '../src/app.factory';
import { loadConfig } from '../src/config';

/** A control plane listening on 127.0.0.1 on a free port, over its own data folder. */
export interface RunningApp {
  app: INestApplication;
  url: string;
  dataDir: string;
  /** The test account, signed in once at start; `request` sends its token. */
  credentials: { username: string; password: string };
  /** `Authorization: Bearer <token>` of that sign-in, for WebSockets and raw fetches. */
  authHeaders: Record<string, string>;
  request(
    method: string,
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Reply>;
  close(): Promise<void>;
}

export interface Reply {
  status: number;
  body: any;
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'sb-app-'));
}

export const TEST_USER = 'admin';
export const TEST_PASSWORD = 'test-password-0123';

/** Signs in over the real route; throws when it is refused. */
export async function signIn(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const body = (await res.json()) as { token?: string; message?: string };
  if (res.status !== 200 || !body.token)
    throw new Error(`sign-in refused: ${res.status} ${body.message ?? ''}`);
  return body.token;
}

/**
 * `options.logs` receives the control plane's log lines (JSON) instead of stdout.
 * Boxes are off unless a test asks for them (`{ SESSIONBOXER_BOXES: 'on' }`). The account's
 * password is TEST_PASSWORD unless `env` sets SESSIONBOXER_ADMIN_PASSWORD; pass
 * `{ authorization: '' }` as a request's headers to call without signing in.
 */
export async function startApp(
  dataDir = tempDataDir(),
  env: Record<string, string> = {},
  options: { logs?: NodeJS.WritableStream } = {},
): Promise<RunningApp> {
  const config = loadConfig({
    SESSIONBOXER_PORT: '0',
    SESSIONBOXER_DATA_DIR: dataDir,
    SESSIONBOXER_BOXES: 'off',
    SESSIONBOXER_ADMIN_PASSWORD: TEST_PASSWORD,
    // In the data dir, so removing it removes the key (the default is beside it).
    SESSIONBOXER_AUDIT_KEY: path.join(dataDir, 'audit-key'),
    // Quiet unless a test asks for logs (SESSIONBOXER_LOG_LEVEL and `options.logs`).
    SESSIONBOXER_LOG_LEVEL: 'silent',
    SESSIONBOXER_LOG_FORMAT: 'json',
    ...env,
  });
  const app = await createApp(config, { logStream: options.logs });
  const url = await listen(app, config);
  const credentials = { username: config.adminUser, password: config.adminPassword ?? '' };
  // With no password given (the generated-password tests), nobody is signed in.
  const authHeaders: Record<string, string> = credentials.password
    ? { authorization: `Bearer ${await signIn(url, credentials.username, credentials.password)}` }
    : {};
  return {
    app,
    url,
    dataDir,
    credentials,
    authHeaders,
    async request(method, route, body, headers = {}) {
      const res = await fetch(url + route, {
        method,
        headers: { 'content-type': 'application/json', ...authHeaders, ...headers },
        body:
          body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
    },
    close: () => app.close(),
  };
}
