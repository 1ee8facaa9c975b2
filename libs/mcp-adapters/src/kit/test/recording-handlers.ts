import type { CallContext } from '../handlers';
import { ToolHandlers, type HandledTool } from '../handlers';

/** One call as it reached its handler: the tool and the arguments after the parser. */
export interface HandlerCall {
  tool: string;
  args: Record<string, unknown>;
}

/** A fixed answer of a test double, from the parsed arguments. */
export type Answer = (args: any) => unknown;

/** The context a double's calls run in: one session's agent, call ids of its own. */
export function fakeContext(sessionId: string, callId = 'call-1'): CallContext {
  let step = 0;
  return {
    sessionId,
    callId,
    actor: { kind: 'agent', sessionId },
    policy: () => Promise.resolve({ agentTools: 'all', source: 'global' }),
    key: `call/${callId}`,
    nextKey: () => `call/${callId}/${step++}`,
    idFor: (kind) => `${kind}-${callId}`,
  };
}

/**
 * A test double of the control plane's side of a set of tools, generated from their registry:
 * every tool gets a handler that records the arguments its parser produced and answers from
 * `answers`. It stands in for no outside service; a tool added to the registry gets one at
 * once (which says it has no answer until the double is given one).
 */
export class RecordingHandlers {
  readonly calls: HandlerCall[] = [];
  readonly handlers: ToolHandlers;

  constructor(
    what: string,
    tools: readonly HandledTool[],
    private readonly parse: (tool: string, args: unknown) => Record<string, unknown>,
    answers: Record<string, Answer>,
    private readonly sessionId: string,
  ) {
    this.handlers = new ToolHandlers(what, tools);
    for (const tool of tools) {
      const answer = answers[tool.name];
      const handler = (args: Record<string, unknown>) => {
        this.calls.push({ tool: tool.name, args });
        if (!answer) throw new Error(`the test double has no answer for ${tool.name}`);
        return answer(args);
      };
      this.handlers.register(tool, handler, 'test double');
    }
  }

  /** A call as the gateway runs it: the parser, then the tool's handler. */
  call(tool: string, args: unknown = {}, ctx = fakeContext(this.sessionId)): Promise<unknown> {
    try {
      return this.handlers.run(tool, this.parse(tool, args), ctx);
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }
}
