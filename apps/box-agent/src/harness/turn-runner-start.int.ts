import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { HarnessOutput } from '@sessionboxer/domain';
import { waitUntil } from '../test/daemon-process';
import type { StreamParser, TurnContext } from './harness.port';
import { scriptedHarness } from './scripted/scripted';
import { scriptedAgentPids } from './test/processes';
import { FAILED, FINISHED, script, turnStart } from './test/turn-frames';
import { CONV, countingScripted, ended, useTurnRunner } from './test/turn-runner-fixture';

/**
 * Turns the TurnRunner cannot start (no credential, no CLI, a plan writing outside its scratch
 * folder) end with an error and a failed turn_finished, never a hung turn; and a plan's own files
 * live in the scratch folder for the turn only.
 */
const startRunner = useTurnRunner();

describe('TurnRunner, when the turn cannot start', () => {
  const credentialNames = ['SB_TEST_API_KEY', 'SB_TEST_AUTH_TOKEN'];

  it.each([
    ['no env at all', {}],
    ['only empty values', { SB_TEST_API_KEY: '' }],
  ])(
    'fails a harness that needs a credential given %s, starting no process',
    async (_, env: Record<string, string>) => {
      const double = countingScripted({ credentialEnv: () => credentialNames });
      const { runner, frames } = startRunner(double.adapter);
      runner.start(turnStart(CONV, 1, script({ say: 'never' }), env));
      await waitUntil(ended(frames));

      const outputs = frames.outputs(CONV, 1);
      expect(outputs).toEqual([
        { type: 'error', code: 'credentials_missing', message: expect.any(String) },
        FAILED,
      ]);
      const { message } = outputs[0] as { message: string };
      expect(message).toContain('SB_TEST_API_KEY, SB_TEST_AUTH_TOKEN');
      expect(double.plans).toBe(0);
      expect(scriptedAgentPids()).toEqual([]);
    },
  );

  it('runs that harness once one of its credentials is set', async () => {
    const double = countingScripted({ credentialEnv: () => credentialNames });
    const { runner, frames } = startRunner(double.adapter);
    const env = { SB_TEST_AUTH_TOKEN: 'token' };
    runner.start(turnStart(CONV, 1, script({ say: 'ran' }), env));
    await waitUntil(ended(frames));
    expect(frames.outputs(CONV, 1)).toEqual([{ type: 'message', text: 'ran' }, FINISHED]);
    expect(double.plans).toBe(1);
  });

  it.each(['sb-test-no-such-agent-cli', '/nonexistent/sb-test/agent-cli'])(
    'fails with agent_unavailable naming the missing executable %s',
    async (executable) => {
      const missingExecutable = countingScripted({ executable: () => executable });
      const { runner, frames } = startRunner(missingExecutable.adapter);
      runner.start(turnStart(CONV, 1, script({ say: 'never' })));
      await waitUntil(ended(frames));

      const outputs = frames.outputs(CONV, 1);
      expect(outputs).toEqual([
        { type: 'error', code: 'agent_unavailable', message: expect.any(String) },
        FAILED,
      ]);
      expect((outputs[0] as { message: string }).message).toContain(
        `scripted cannot run: ${executable} is not installed`,
      );
      expect(missingExecutable.plans).toBe(0);
    },
  );

  it.each([
    ['the workspace', (ctx: TurnContext) => path.join(ctx.workspace, 'escaped.json')],
    ['its parent', (ctx: TurnContext) => `${ctx.scratchDir}/../escaped.json`],
    ['a sibling sharing its prefix', (ctx: TurnContext) => `${ctx.scratchDir}-x/escaped.json`],
    ['a relative path', () => 'escaped.json'],
  ])(
    'fails a plan that writes a file in %s, outside its scratch folder, writing nothing',
    async (_, where) => {
      const written: string[] = [];
      const escapingPlan = countingScripted({
        plan: (turn, ctx, executable) => {
          const file = where(ctx);
          written.push(path.resolve(file));
          return { ...scriptedHarness.plan(turn, ctx, executable), files: { [file]: '{}' } };
        },
      });
      const { runner, frames } = startRunner(escapingPlan.adapter);
      runner.start(turnStart(CONV, 1, script({ say: 'never' })));
      await waitUntil(ended(frames));

      expect(frames.outputs(CONV, 1)).toEqual([
        {
          type: 'error',
          code: 'agent_failed',
          message: expect.stringMatching(
            /^the harness asked to write .*escaped\.json, outside its scratch folder$/,
          ),
        },
        FAILED,
      ]);
      expect(written).toHaveLength(1);
      expect(existsSync(written[0])).toBe(false);
      expect(scriptedAgentPids()).toEqual([]);
    },
  );
});

describe("TurnRunner and a plan's files", () => {
  it('writes them in the scratch folder before the start and removes the folder after', async () => {
    const seen: { file: string; existed: boolean }[] = [];
    const filesPlan = countingScripted({
      plan: (turn, ctx, executable) => {
        const file = path.join(ctx.scratchDir, 'conf', 'harness.json');
        const plan = scriptedHarness.plan(turn, ctx, executable);
        return { ...plan, env: { ...plan.env, SB_TEST_CONF: file }, files: { [file]: '{}' } };
      },
      // Looks at the file while the harness runs (its first line).
      parser: (turn, media): StreamParser => {
        const inner = scriptedHarness.parser(turn, media);
        return {
          line: (text) => {
            const outputs: HarnessOutput[] = inner.line(text);
            const conf = outputs.find((o) => o.type === 'message');
            if (conf?.type === 'message' && seen.length === 0) {
              seen.push({ file: conf.text, existed: existsSync(conf.text) });
            }
            return outputs;
          },
          end: (exit) => inner.end(exit),
        };
      },
    });
    const { runner, frames } = startRunner(filesPlan.adapter);
    runner.start(turnStart(CONV, 1, script({ echo_env: 'SB_TEST_CONF' })));
    await waitUntil(ended(frames));

    expect(frames.outputs(CONV, 1).at(-1)).toEqual(FINISHED);
    expect(seen).toEqual([{ file: expect.stringMatching(/conf\/harness\.json$/), existed: true }]);
    await waitUntil(() => runner.running().length === 0);
    expect(existsSync(path.dirname(path.dirname(seen[0].file)))).toBe(false);
  });
});

describe('TurnRunner and the .mcp.json it reads', () => {
  it('reads the servers only once the writes asked for before the turn are done', async () => {
    let written = (): void => undefined;
    const pending = new Promise<void>((resolve) => (written = resolve));
    const seen: string[][] = [];
    const reading = countingScripted({
      plan: (turn, ctx, executable) => {
        seen.push(Object.keys(ctx.mcpServers));
        return scriptedHarness.plan(turn, ctx, executable);
      },
    });
    const { runner, frames, workspace } = startRunner(reading.adapter, {
      mcpJsonWritten: () => pending,
    });
    const file = path.join(workspace, '.mcp.json');
    const before = readFileSync(file, 'utf8');
    try {
      runner.start(turnStart(CONV, 1, script({ say: 'ran' })));
      await new Promise((r) => setTimeout(r, 300));
      expect(seen).toEqual([]);
      // What the pending write puts in (a registry pushed just before the turn).
      const json = JSON.parse(before) as { mcpServers: Record<string, unknown> };
      const terminals = { command: process.execPath, args: ['relay-server.js'], env: {} };
      writeFileSync(file, JSON.stringify({ mcpServers: { ...json.mcpServers, terminals } }));
      written();
      await waitUntil(ended(frames));
      expect(seen).toEqual([['sessionboxer', 'terminals']]);
    } finally {
      writeFileSync(file, before);
    }
  });
});
