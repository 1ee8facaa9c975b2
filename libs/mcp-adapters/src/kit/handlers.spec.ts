import { z } from 'zod';
import { callParser } from './call-parser';
import { defineTool } from './define-tool';
import { ToolHandlers } from './handlers';
import { fakeContext } from './test/recording-handlers';

/** A throwaway tool, as a new tool file would define it. */
const echoTool = defineTool({
  name: 'echo_back',
  title: 'Echo back',
  description: 'Answers its text, trimmed.',
  input: { text: z.string().trim().min(1) },
  annotations: { readOnlyHint: true },
  route: 'control-plane',
});
const otherTool = defineTool({ ...echoTool, name: 'other_tool', input: {} });
const tools = [echoTool, otherTool];
const parse = callParser('test tool', tools);
const ctx = fakeContext('3f2a0000-0000-4000-8000-000000000001');

describe('ToolHandlers: one handler per tool, registered by its owner', () => {
  it('runs a new tool through the public path: its file, its handler, a call', async () => {
    const handlers = new ToolHandlers('test tool', tools);
    // The handler's arguments are typed from the tool's own input: text is a string.
    handlers.register(echoTool, ({ text }, c) => ({ text, from: c.sessionId }), 'test');
    await expect(
      handlers.run('echo_back', parse('echo_back', { text: ' hi ' }), ctx),
    ).resolves.toEqual({ text: 'hi', from: ctx.sessionId });
    expect(handlers.ownerOf('echo_back')).toBe('test');
  });

  it('the boot check names every tool still without a handler', () => {
    const handlers = new ToolHandlers('test tool', tools);
    expect(() => handlers.assertComplete()).toThrow(
      'no handler for the test tools echo_back, other_tool',
    );
    handlers.register(echoTool, () => 'ok', 'test');
    expect(handlers.missing()).toEqual(['other_tool']);
    handlers.register(otherTool, () => 'ok', 'test');
    expect(() => handlers.assertComplete()).not.toThrow();
  });

  it('refuses a second handler for a tool, naming both owners, and a tool not in its set', () => {
    const handlers = new ToolHandlers('test tool', [echoTool]);
    handlers.register(echoTool, () => 'first', 'sessions');
    expect(() => handlers.register(echoTool, () => 'second', 'schedules')).toThrow(
      'test tool echo_back has two handlers: sessions and schedules (one owner per tool)',
    );
    expect(() => handlers.register(otherTool, () => 'x', 'sessions')).toThrow(
      'other_tool is not a test tool',
    );
  });

  it('a handler that throws rejects the call with its own error', async () => {
    const handlers = new ToolHandlers('test tool', [echoTool]);
    handlers.register(
      echoTool,
      () => {
        throw new Error('refused: because');
      },
      'test',
    );
    await expect(handlers.run('echo_back', { text: 'x' }, ctx)).rejects.toThrow('refused: because');
  });
});
