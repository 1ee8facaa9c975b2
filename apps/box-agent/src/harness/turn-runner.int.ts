import { waitUntil } from '../test/daemon-process';
import type { HarnessAdapter } from './harness.port';
import { scriptedHarness } from './scripted/scripted';
import { groupMembers, isGone, scriptedAgentPids } from './test/processes';
import { contiguousIndexes, FINISHED, script, turnStart } from './test/turn-frames';
import {
  CONV,
  countingScripted,
  ended,
  said,
  SESSION,
  useTurnRunner,
} from './test/turn-runner-fixture';

/**
 * The TurnRunner with the real scripted harness: each turn a real child process in a temporary
 * workspace whose .mcp.json lists the real sessionboxer stdio server (against an HTTP stand-in
 * of the daemon), its outputs collected as the daemon would hand them to the control plane.
 */
const startRunner = useTurnRunner();

describe('TurnRunner with the scripted harness', () => {
  it("delivers a script's outputs in order, numbered without gaps, ending finished", async () => {
    const { runner, frames } = startRunner();
    const prompt = script(
      { say: 'one' },
      { say: 'two' },
      { call: 'sessionboxer.whoami' },
      { say: 'three' },
    );
    runner.start(turnStart(CONV, 1, prompt));
    expect(runner.running()).toEqual([{ conversationId: CONV, turn: 1 }]);
    await waitUntil(ended(frames), 15_000);

    const whoami = { type: 'tool_call', id: 'toolu_scripted_1', name: 'mcp__sessionboxer__whoami' };
    expect(frames.outputs(CONV, 1)).toEqual([
      { type: 'message', text: 'one' },
      { type: 'message', text: 'two' },
      { ...whoami, input: {} },
      { type: 'tool_result', id: 'toolu_scripted_1', output: expect.any(String), error: false },
      { type: 'message', text: 'three' },
      FINISHED,
    ]);
    const result = frames.outputs(CONV, 1)[3] as { output: string };
    expect(JSON.parse(result.output)).toMatchObject({ title: SESSION.title });
    const turnFrames = frames.of(CONV, 1);
    expect(turnFrames.map((f) => f.fromIndex)).toEqual(contiguousIndexes(turnFrames));
    expect(frames.frames).toEqual(turnFrames);
    await waitUntil(() => runner.running().length === 0);
  });

  it('joins a turn.start it already runs instead of starting the turn again', async () => {
    const double = countingScripted();
    const { runner, frames } = startRunner(double.adapter);
    const push = turnStart(CONV, 1, script({ say: 'once' }, { sleep: 0.5 }, { say: 'done' }));
    runner.start(push);
    runner.start(push);
    await waitUntil(said(frames, 'once'));
    runner.start({ ...push });
    await waitUntil(ended(frames));

    expect(double.plans).toBe(1);
    expect(frames.outputs(CONV, 1)).toEqual([
      { type: 'message', text: 'once' },
      { type: 'message', text: 'done' },
      FINISHED,
    ]);
    expect(frames.of(CONV, 1).map((f) => f.fromIndex)).toEqual(
      contiguousIndexes(frames.of(CONV, 1)),
    );
  });

  it('stops the harness and its MCP server at an interrupt, delivering nothing after it', async () => {
    const { runner, frames } = startRunner();
    const prompt = script({ call: 'sessionboxer.whoami' }, { say: 'sleeping' }, { sleep: 30 });
    runner.start(turnStart(CONV, 1, prompt));
    await waitUntil(said(frames, 'sleeping'), 15_000);
    const [agent] = scriptedAgentPids();
    // The agent and the stdio server it started for the call share the agent's process group.
    expect(groupMembers(agent).length).toBeGreaterThanOrEqual(2);
    const delivered = frames.frames.length;

    runner.interrupt(CONV, 2);
    runner.interrupt('conv-runner-other', 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(isGone(agent)).toBe(false);

    const interruptedAt = Date.now();
    runner.interrupt(CONV, 1);
    await waitUntil(() => runner.running().length === 0, 10_000);
    // Well under the 3 s after which SIGKILL would have done it: SIGTERM stopped it.
    expect(Date.now() - interruptedAt).toBeLessThan(2_500);
    expect(isGone(agent)).toBe(true);
    await waitUntil(() => groupMembers(agent).length === 0, 3_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(frames.frames).toHaveLength(delivered);
    expect(frames.outputs(CONV, 1).map((o) => o.type)).toEqual([
      'tool_call',
      'tool_result',
      'message',
    ]);
  });

  it('kills the whole group after the grace period when a child of the harness ignores SIGTERM', async () => {
    // A test double: the scripted agent behind a shell that leaves a SIGTERM-deaf `sleep` in its
    // group, holding the harness's stdout open after the agent itself has exited.
    const deafChildScripted: HarnessAdapter = {
      ...scriptedHarness,
      executable: () => '/bin/sh',
      plan: (turn, ctx, shell) => {
        const plan = scriptedHarness.plan(turn, ctx, ctx.nodePath);
        const keep = 'trap "" TERM; sleep 60 & exec "$@"';
        return { ...plan, argv: [shell, '-c', keep, 'sh', ...plan.argv] };
      },
    };
    const { runner, frames } = startRunner(deafChildScripted);
    runner.start(turnStart(CONV, 1, script({ say: 'sleeping' }, { sleep: 30 })));
    await waitUntil(said(frames, 'sleeping'));
    const [agent] = scriptedAgentPids();
    expect(groupMembers(agent)).toHaveLength(2);

    runner.interrupt(CONV, 1);
    await waitUntil(() => isGone(agent), 2_000);
    await waitUntil(() => runner.running().length === 0 && groupMembers(agent).length === 0, 8_000);
    expect(frames.outputs(CONV, 1)).toEqual([{ type: 'message', text: 'sleeping' }]);
  });

  it("stops a conversation's older turn when a newer one starts", async () => {
    const { runner, frames } = startRunner();
    runner.start(turnStart(CONV, 1, script({ say: 'one' }, { sleep: 30 })));
    runner.start(turnStart('conv-runner-2', 1, script({ say: 'elsewhere' }, { sleep: 30 })));
    await waitUntil(said(frames, 'one'));
    await waitUntil(() => scriptedAgentPids().length === 2);
    const olderAgents = scriptedAgentPids();

    runner.start(turnStart(CONV, 2, script({ say: 'two' })));
    await waitUntil(ended(frames, 2));
    await waitUntil(() => olderAgents.filter(isGone).length === 1, 5_000);

    expect(frames.outputs(CONV, 1)).toEqual([{ type: 'message', text: 'one' }]);
    expect(frames.outputs(CONV, 2)).toEqual([{ type: 'message', text: 'two' }, FINISHED]);
    expect(frames.of(CONV, 2)[0].fromIndex).toBe(0);
    await waitUntil(() => runner.running().length === 1);
    expect(runner.running()).toEqual([{ conversationId: 'conv-runner-2', turn: 1 }]);
  });

  it('hands the harness the turn’s env but none of the daemon’s own SESSIONBOXER_ variables', async () => {
    const name = 'SESSIONBOXER_TEST_DAEMON_ONLY';
    const saved = process.env[name];
    process.env[name] = 'the-daemons-own-value';
    try {
      const { runner, frames } = startRunner();
      const prompt = script({ echo_env: 'SB_TEST_TURN_KEY' }, { echo_env: name });
      runner.start(turnStart(CONV, 1, prompt, { SB_TEST_TURN_KEY: 'sk-turn-only' }));
      await waitUntil(ended(frames));

      expect(frames.outputs(CONV, 1)).toEqual([
        { type: 'message', text: 'sk-turn-only' },
        { type: 'message', text: '' },
        FINISHED,
      ]);
    } finally {
      if (saved === undefined) delete process.env[name];
      else process.env[name] = saved;
    }
  });
});
