import * as fs from 'node:fs';
import * as net from 'node:net';
import type { RunningApp } from '../harness';
import { tempDataDir } from '../harness';
import { script, turnFinished } from '../agent/agent-kit';
import { waitFor, waitForBox } from '../box-kit';
import {
  type ControlPlaneProcess,
  isFrozen,
  killBox,
  pidOf,
  removeAllBoxes,
  startControlPlane,
} from './process-kit';

const DAEMON = 'dist/apps/box-agent/src/main.js';
const LONG = 'sleep 987654'; // the box's long-running process, in a Terminal of the daemon

/**
 * Boxes outlive the control plane (the built process, killed with SIGKILL): a scripted turn
 * running through the kill finishes and its output is recorded once, the box's processes keep
 * their pids, the daemon reconnects, a frozen box stays frozen; after a "reboot" (the boxes'
 * processes killed while it is down) their status says so and resume starts them again.
 */
describe('boxes across a kill -9 of the control plane', () => {
  const dataDir = tempDataDir();
  let cp: ControlPlaneProcess | null = null;
  const api = () => (cp as ControlPlaneProcess).api as RunningApp;
  const restart = async () => {
    await cp?.kill();
    cp = await startControlPlane(dataDir);
  };
  const events = async (stream: string): Promise<{ type: string; data: any }[]> =>
    (await api().request('GET', `/api/streams/${stream}/events?limit=1000`)).body.events;
  const messages = async (id: string, turn: number): Promise<string[]> =>
    (await api().request('GET', `/api/sessions/${id}/conversation?limit=500`)).body.events
      .filter((e: any) => e.turn === turn && e.type === 'message')
      .map((e: any) => e.text);
  let working: string;
  let stopped: string;

  beforeAll(async () => {
    cp = await startControlPlane(dataDir);
    const create = async (title: string) =>
      (await api().request('POST', '/api/sessions', { title, provider: 'scripted' })).body.id;
    working = await create('Working through the restart');
    stopped = await create('Stopped before the restart');
    await waitForBox(api(), working);
    await waitForBox(api(), stopped);
  });
  afterAll(async () => {
    await cp?.kill();
    await removeAllBoxes(dataDir);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the pids, reconnects the daemon, records the turn once, keeps a frozen box frozen', async () => {
    expect((await api().request('POST', `/api/sessions/${stopped}/stop`, {})).status).toBe(200);
    await waitForBox(api(), stopped, 'frozen');
    const frozenDaemon = pidOf(dataDir, stopped, DAEMON);
    expect(isFrozen(dataDir, stopped)).toBe(true);
    await api().request('POST', `/api/sessions/${working}/prompts`, {
      text: script(
        { call: 'sessionboxer.ui_open', args: { pane: 'terminal', terminal: { command: LONG } } },
        { say: 'before' },
        { sleep: 4 },
        { call: 'sessionboxer.title_set', args: { title: 'Renamed after the restart' } },
        { say: 'after' },
      ),
    });
    await waitFor('the first message', async () => (await messages(working, 1)).length === 1);
    // The running turn keeps the policy it started with, across the restart too.
    await api().request('PATCH', `/api/sessions/${working}/policy`, { agentTools: 'off' });
    const long = await waitFor('the Terminal', () => pidOf(dataDir, working, LONG));
    const daemon = pidOf(dataDir, working, DAEMON);
    expect(daemon).toBeDefined();

    await restart();
    expect((await turnFinished(api(), working, 1, 30_000)).status).toBe('finished');
    expect(await messages(working, 1)).toEqual(['before', 'after']);
    expect((await api().request('GET', `/api/sessions/${working}`)).body.title).toBe(
      'Renamed after the restart',
    );
    await waitForBox(api(), working, 'ready');
    expect(pidOf(dataDir, working, DAEMON)).toBe(daemon);
    expect(pidOf(dataDir, working, LONG)).toBe(long);
    // The box's edge socket is served again too.
    const edge = `${dataDir}/boxes/${working}/run/edge.sock`;
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(edge, () => {
        socket.end();
        resolve();
      });
      socket.once('error', reject);
    });
    // Frozen stays frozen, the same processes; thawed, its daemon reconnects.
    expect((await api().request('GET', `/api/sessions/${stopped}`)).body.box.status).toBe('frozen');
    expect(isFrozen(dataDir, stopped)).toBe(true);
    expect(pidOf(dataDir, stopped, DAEMON)).toBe(frozenDaemon);
    const adopted = async (id: string) =>
      (await events(`box-${id}`)).filter((e) => e.type === 'BoxAdopted').map((e) => e.data);
    expect(await adopted(working)).toEqual([
      expect.objectContaining({ processes: 'running', pid: expect.any(Number) }),
    ]);
    expect(await adopted(stopped)).toEqual([expect.objectContaining({ processes: 'frozen' })]);
    expect((await api().request('POST', `/api/sessions/${stopped}/resume`, {})).status).toBe(200);
    await waitForBox(api(), stopped, 'ready');
    expect(pidOf(dataDir, stopped, DAEMON)).toBe(frozenDaemon);
  });

  it('keeps the boxes when the control plane stops on SIGTERM too: only destroy ends a box', async () => {
    const daemon = pidOf(dataDir, working, DAEMON);
    expect(await cp?.stop()).toBe(0);
    expect(pidOf(dataDir, working, DAEMON)).toBe(daemon);
    cp = await startControlPlane(dataDir);
    await waitForBox(api(), working, 'ready');
    expect(pidOf(dataDir, working, DAEMON)).toBe(daemon);
  });

  it('after a reboot says the processes were lost, and resume starts the box again', async () => {
    expect((await api().request('POST', `/api/sessions/${stopped}/stop`, {})).status).toBe(200);
    await waitForBox(api(), stopped, 'frozen');
    await cp?.kill();
    await killBox(dataDir, working);
    await killBox(dataDir, stopped);
    cp = await startControlPlane(dataDir);
    const lost = async (id: string) =>
      (await events(`box-${id}`)).filter((e) => e.type === 'BoxProcessesLost');
    expect(await lost(stopped)).toHaveLength(1);
    expect(await lost(working)).toHaveLength(1);
    expect((await api().request('GET', `/api/sessions/${stopped}`)).body.box.status).toBe('lost');
    expect(fs.existsSync(`${dataDir}/boxes/${stopped}/workspace/.mcp.json`)).toBe(true);
    // The running session gets a new box; the stopped one when it is resumed.
    await waitForBox(api(), working, 'ready');
    expect((await api().request('POST', `/api/sessions/${stopped}/resume`, {})).status).toBe(200);
    await waitForBox(api(), stopped, 'ready');
    await api().request('POST', `/api/sessions/${stopped}/prompts`, {
      text: script({ say: 'back' }),
    });
    await turnFinished(api(), stopped, 1, 30_000);
    expect(await messages(stopped, 1)).toEqual(['back']);
  });
});
