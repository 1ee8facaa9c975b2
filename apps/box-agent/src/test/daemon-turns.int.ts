import * as path from 'node:path';
import type { AgentOutputFrame } from '@sessionboxer/mcp-adapters/bridge/protocol';
import { loadConfig } from '../config';
import { startDaemon, type RunningDaemon } from '../daemon';
import { isGone, scriptedAgentPids } from '../harness/test/processes';
import { RecordingLog } from '../harness/test/recording-log';
import { contiguousIndexes, outputsOf, script, turnStart } from '../harness/test/turn-frames';
import { makeBoxDir, waitUntil } from './daemon-process';
import { TestGateway } from './test-gateway';

/**
 * The whole daemon in this process (startDaemon with the config a box would load), its
 * gateway a real WebSocket server on the box's Unix socket, running a real scripted agent:
 * outputs survive a dropped connection until the gateway acknowledges them.
 */
const CONV = 'conv-daemon-turns-1';

describe('agent turns in the box daemon', () => {
  const box = makeBoxDir();
  const log = new RecordingLog();
  let gateway: TestGateway;
  let daemon: RunningDaemon;
  let requests = 0;

  beforeAll(async () => {
    gateway = await TestGateway.start(box.socket);
    const config = loadConfig({
      SESSIONBOXER_DAEMON_PORT: '0',
      SESSIONBOXER_WORKSPACE: box.workspace,
      SESSIONBOXER_GATEWAY_SOCKET: box.socket,
      SESSIONBOXER_MCP_COMMAND_ROOT: path.join(box.dir, 'mcp'),
      SESSIONBOXER_DESKTOP: 'off',
    });
    daemon = await startDaemon(config, log);
    await gateway.event('hello');
  });
  afterAll(async () => {
    await daemon?.close();
    await waitUntil(() => scriptedAgentPids().length === 0);
    await gateway?.close();
    box.remove();
  });

  const outputFrames = (connection: number): AgentOutputFrame[] =>
    gateway.frames
      .filter((f) => f.connection === connection && f.event === 'agent.output')
      .map((f) => f.data as AgentOutputFrame);

  /** A request answered on the same connection: every frame pushed before it was handled. */
  async function roundTrip(): Promise<void> {
    const requestId = `turns-req-${++requests}`;
    gateway.push('terminal.list', { requestId });
    await gateway.waitFor((f) => f.event === 'terminal.answer' && f.data.requestId === requestId);
  }

  /** Drops the connection abruptly and waits for the daemon's hello on the next one. */
  async function reconnect(): Promise<{ connection: number; hello: any }> {
    const connection = gateway.connections + 1;
    for (const socket of gateway.sockets) socket.terminate();
    const hello = await gateway.waitFor((f) => f.event === 'hello' && f.connection === connection);
    return { connection, hello: hello.data };
  }

  it('resends unacknowledged outputs after a reconnect, lists the running turn, and stops it on turn.interrupt', async () => {
    expect(gateway.frames.find((f) => f.event === 'hello')?.data.turns).toEqual([]);
    const prompt = script(
      { say: 'a' },
      { sleep: 0.2 },
      { say: 'b' },
      { sleep: 0.2 },
      { say: 'c' },
      { sleep: 30 },
    );
    gateway.push('turn.start', turnStart(CONV, 1, prompt, { SB_TEST_KEY: 'k' }));
    await waitUntil(() => outputsOf(outputFrames(1)).some((o) => 'text' in o && o.text === 'c'));
    const first = outputFrames(1);
    expect(outputsOf(first)).toEqual(['a', 'b', 'c'].map((text) => ({ type: 'message', text })));
    expect(first.map((f) => f.fromIndex)).toEqual(contiguousIndexes(first));
    expect(first.length).toBeGreaterThanOrEqual(2);

    const acked = first.filter((_, i) => i % 2 === 0);
    const unacked = first.filter((_, i) => i % 2 === 1);
    for (const { conversationId, turn, fromIndex } of acked) {
      gateway.push('agent.ack', { conversationId, turn, fromIndex });
    }
    await roundTrip();

    const second = await reconnect();
    expect(second.hello.turns).toEqual([{ conversationId: CONV, turn: 1 }]);
    await waitUntil(() => outputFrames(second.connection).length >= unacked.length);
    await roundTrip();
    expect(outputFrames(second.connection)).toEqual(unacked);
    const onSecond = gateway.frames.filter((f) => f.connection === second.connection);
    expect(onSecond[0].event).toBe('hello');

    const [agent] = scriptedAgentPids();
    gateway.push('turn.interrupt', { conversationId: CONV, turn: 1 });
    await waitUntil(() => isGone(agent), 5_000);

    // The turn no longer runs, but its end may be among its unacknowledged outputs, so the hello
    // still lists it (the control plane must not fail it as lost); they go, and nothing new.
    const third = await reconnect();
    expect(third.hello.turns).toEqual([{ conversationId: CONV, turn: 1 }]);
    await waitUntil(() => outputFrames(third.connection).length >= unacked.length);
    await roundTrip();
    expect(outputFrames(third.connection)).toEqual(unacked);
  });

  it('sends nothing again once every output is acknowledged', async () => {
    const conversationId = 'conv-daemon-turns-2';
    gateway.push('turn.start', turnStart(conversationId, 1, script({ say: 'hi' })));
    const connection = gateway.connections;
    const isMine = (f: AgentOutputFrame) => f.conversationId === conversationId;
    await waitUntil(() =>
      outputsOf(outputFrames(connection).filter(isMine)).some((o) => o.type === 'turn_finished'),
    );
    for (const { turn, fromIndex } of outputFrames(connection).filter(isMine)) {
      gateway.push('agent.ack', { conversationId, turn, fromIndex });
    }
    await roundTrip();

    const next = await reconnect();
    await roundTrip();
    expect(
      next.hello.turns.filter(
        (t: { conversationId: string }) => t.conversationId === conversationId,
      ),
    ).toEqual([]);
    expect(outputFrames(next.connection).filter(isMine)).toEqual([]);
  });
});
