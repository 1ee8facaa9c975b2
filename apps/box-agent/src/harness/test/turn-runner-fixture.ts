import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startFakeDaemon, type FakeDaemon } from '../../mcp/test/fake-daemon';
import { waitUntil } from '../../test/daemon-process';
import type { HarnessAdapter } from '../harness.port';
import { harnessAdapters } from '../harnesses';
import { scriptedHarness } from '../scripted/scripted';
import { InMemorySession } from '../scripted/test/in-memory-session';
import { sessionboxerServer } from '../scripted/test/run-scripted';
import { TurnRunner, type TurnRunnerOptions } from '../turn-runner';
import { scriptedAgentPids } from './processes';
import { RecordingLog } from './recording-log';
import { DeliveredFrames } from './turn-frames';

export const CONV = 'conv-runner-1';
export const SESSION = { id: '3f2a0000-0000-4000-8000-00000000000b', title: 'Run the turns' };

/**
 * A TurnRunner per test over a temporary workspace whose .mcp.json lists the real sessionboxer
 * stdio server (against an HTTP stand-in of the daemon). Registers the hooks that stop every
 * turn and remove the workspace; call it once at the top of a test file.
 */
export function useTurnRunner() {
  let workspace = '';
  let daemon: FakeDaemon | undefined;
  let runner: TurnRunner | undefined;
  beforeAll(async () => {
    daemon = await startFakeDaemon(
      new InMemorySession({ ...SESSION, environment: 'docker-linux' }).double,
    );
    workspace = mkdtempSync(path.join(tmpdir(), 'sb-runner-ws-'));
    const mcpServers = { sessionboxer: sessionboxerServer(daemon.url) };
    writeFileSync(path.join(workspace, '.mcp.json'), JSON.stringify({ mcpServers }));
  });
  afterEach(async () => {
    runner?.stopAll();
    await waitUntil(
      () => (runner?.running() ?? []).length === 0 && scriptedAgentPids().length === 0,
    );
    runner = undefined;
  });
  afterAll(async () => {
    await daemon?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  /** A runner whose `scripted` harness is the one given (the real one by default). */
  return function startRunner(
    scripted: HarnessAdapter = scriptedHarness,
    extra: Pick<TurnRunnerOptions, 'mcpJsonWritten'> = {},
  ) {
    const frames = new DeliveredFrames();
    const log = new RecordingLog();
    runner = new TurnRunner({
      workspace,
      nodePath: process.execPath,
      adapters: { ...harnessAdapters, scripted },
      deliver: frames.deliver,
      log,
      ...extra,
    });
    return { runner, frames, log, workspace };
  };
}

export const ended =
  (frames: DeliveredFrames, turn = 1) =>
  () =>
    frames.outputs(CONV, turn).some((o) => o.type === 'turn_finished');

export const said =
  (frames: DeliveredFrames, text: string, turn = 1) =>
  () =>
    frames.outputs(CONV, turn).some((o) => o.type === 'message' && o.text === text);

/** A test double: the scripted harness, counting the processes it was asked to plan. */
export function countingScripted(overrides: Partial<HarnessAdapter> = {}) {
  const double = {
    plans: 0,
    adapter: {
      ...scriptedHarness,
      plan: (...args: Parameters<HarnessAdapter['plan']>) => {
        double.plans++;
        return scriptedHarness.plan(...args);
      },
      ...overrides,
    } satisfies HarnessAdapter,
  };
  return double;
}
