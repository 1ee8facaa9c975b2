import { createHmac } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { LocalBoxDriver } from '../src/boxes/driver';
import { BOX_DRIVER } from '../src/infrastructure/tokens';
import { GitHubDouble } from './github-double/github-double';
import { call, mcpClientInBox, waitFor, waitForBox } from './box-kit';
import { startApp, type RunningApp } from './harness';

const SECRET = 'webhook-secret-for-the-e2e-test';
const PR = { owner: 'acme', repo: 'widgets', number: 7 };

describe('a box through stop, resume, PR webhooks and destroy', () => {
  let github: GitHubDouble;
  let api: RunningApp;
  let client: Client;
  let id: string;

  const boxEvents = async (): Promise<string[]> =>
    (await api.request('GET', `/api/streams/box-${id}/events`)).body.events.map(
      (e: { type: string }) => e.type,
    );
  const webhook = (body: object, signature?: string) => {
    const raw = JSON.stringify(body);
    const sig = signature ?? `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`;
    return api.request('POST', '/api/webhooks/github', raw, {
      'x-github-event': 'pull_request_review_comment',
      'x-hub-signature-256': sig,
    });
  };

  beforeAll(async () => {
    github = await GitHubDouble.start();
    github.addPr({ ...PR, title: 'Widgets' });
    process.env.SESSIONBOXER_GITHUB_API_URL = github.url;
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    id = (await api.request('POST', '/api/sessions', { title: 'Lifecycle' })).body.id;
    await waitForBox(api, id);
    client = await mcpClientInBox(api, id);
  });
  afterAll(async () => {
    await client?.close();
    await api?.close();
    await github?.close();
    delete process.env.SESSIONBOXER_GITHUB_API_URL;
    fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('stop freezes the box and keeps its files; resume thaws it and the agent goes on', async () => {
    const stopped = (await api.request('POST', `/api/sessions/${id}/stop`, {})).body;
    expect(stopped.status).toBe('stopped');
    expect(stopped.box.status).toBe('frozen');
    expect(api.app.get<LocalBoxDriver>(BOX_DRIVER).info(id)?.status).toBe('frozen');
    expect(fs.existsSync(stopped.box.mcpJsonPath)).toBe(true);
    await api.request('POST', `/api/sessions/${id}/resume`);
    await waitForBox(api, id, 'ready');
    expect((await call(client, 'whoami')).status).toBe('idle');
    expect(await boxEvents()).toEqual([
      'BoxProvisioned',
      'BoxReady',
      'BoxFrozen',
      'BoxThawed',
      'BoxReady',
    ]);
  });

  it('a signed webhook makes the watcher read the PR now: new review items become events and notify', async () => {
    await api.request('PATCH', '/api/settings', { github: { webhookSecret: SECRET } });
    expect((await call(client, 'pr_attach', { repo: 'acme/widgets', number: 7 })).unaddressed).toBe(
      0,
    );
    github.addReviewComment(PR, { body: 'Needs a test', author: 'reviewer' });
    const payload = {
      pull_request: { number: 7 },
      repository: { name: 'widgets', owner: { login: 'acme' } },
    };
    expect((await webhook(payload, 'sha256=' + '0'.repeat(64))).status).toBe(403);
    const accepted = await webhook(payload);
    expect(accepted.status).toBe(202);
    expect(accepted.body.polled).toBe(1);
    const items = await waitFor('the new comment', async () => {
      const { items: all } = await call(client, 'pr_items', { pr: 'acme/widgets#7' });
      return all.some((i: { body: string }) => i.body === 'Needs a test') && all;
    });
    expect(items).toHaveLength(1);
    const bell = (await api.request('GET', `/api/sessions/${id}/notifications`)).body.notifications;
    expect(bell.map((n: { text: string }) => n.text)).toContainEqual(
      expect.stringContaining('acme/widgets#7'),
    );
  });

  it('destroy ends the box and removes its workspace', async () => {
    const workspace = (await api.request('GET', `/api/sessions/${id}`)).body.box.workspacePath;
    const destroyed = await api.request('POST', `/api/sessions/${id}/box/destroy`);
    expect(destroyed.status).toBe(200);
    expect(destroyed.body.box.status).toBe('destroyed');
    expect(fs.existsSync(path.dirname(workspace))).toBe(false);
    expect((await boxEvents()).at(-1)).toBe('BoxDestroyed');
  });
});
