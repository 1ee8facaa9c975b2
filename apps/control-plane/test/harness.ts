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

/** Boxes are off unless a test asks for them (`{ SESSIONBOXER_BOXES: 'on' }`). */
export async function startApp(
  dataDir = tempDataDir(),
  env: Record<string, string> = {},
): Promise<RunningApp> {
  const config = loadConfig({
    SESSIONBOXER_PORT: '0',
    SESSIONBOXER_DATA_DIR: dataDir,
    SESSIONBOXER_BOXES: 'off',
    ...env,
  });
  const app = await createApp(config, { logger: false });
  const url = await listen(app, config);
  return {
    app,
    url,
    dataDir,
    async request(method, route, body, headers = {}) {
      const res = await fetch(url + route, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body:
          body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
    },
    close: () => app.close(),
  };
}
