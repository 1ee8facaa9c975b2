import * as fs from 'node:fs';
import { controlPlaneTools, e2eTools } from '@sessionboxer/mcp-adapters';
import { CallHandlers } from '../src/calls/call-handlers';
import { startApp, type RunningApp } from './harness';

/** The running control plane answers every tool it lists, each through its owning module. */
describe('tool handlers of the running control plane', () => {
  let api: RunningApp;
  beforeAll(async () => {
    api = await startApp();
  });
  afterAll(async () => {
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('has exactly one owner for every sessionboxer and Auto QA tool', () => {
    const handlers = api.app.get(CallHandlers);
    expect(handlers.sessionboxer.missing()).toEqual([]);
    expect(handlers.e2e.missing()).toEqual([]);
    const owners = Object.fromEntries(
      controlPlaneTools.map((t) => [t.name, handlers.sessionboxer.ownerOf(t.name)]),
    );
    expect(owners).toMatchObject({
      whoami: 'sessions',
      settings_get: 'settings',
      pr_attach: 'pull-requests',
      snapshot: 'boxes',
      queue_add: 'agent',
      verify: 'auto-qa',
      session_create: 'other-sessions',
      schedule_create: 'schedules',
    });
    expect(e2eTools.map((t) => handlers.e2e.ownerOf(t.name))).toEqual(
      e2eTools.map(() => 'auto-qa'),
    );
  });
});
