import type { Actor } from '@sessionboxer/domain';
import type { z } from 'zod';
import type { PolicyInForce } from '../sessionboxer/policy';

/**
 * Who is calling and what a handler may derive from the call. The control plane builds it
 * from the box's socket (never from the arguments), once per call.
 */
export interface CallContext {
  /** The calling session: the one whose box's socket the call arrived on. */
  readonly sessionId: string;
  readonly callId: string;
  readonly actor: Actor;
  /**
   * The sessionboxer policy the call runs under (already checked against the tool, unless the
   * tool acts on the caller only, where no policy applies: then it is read when asked).
   */
  policy(): Promise<PolicyInForce>;
  /** `call/<callId>`: the idempotency key of a call that takes effect once, as a whole. */
  readonly key: string;
  /** `call/<callId>/<n>`: the key of the call's next command (a new one each time). */
  nextKey(): string;
  /** An id for something this call creates, the same when the call is resent. */
  idFor(kind: string): string;
}

/** A tool as its handler sees it: a name and an input shape. */
export interface HandledTool {
  readonly name: string;
  readonly input: z.ZodRawShape;
}

/** The parsed arguments of `Tool`, as its input schema gives them. */
export type ArgsOf<Tool extends HandledTool> = z.infer<z.ZodObject<Tool['input']>>;

/** What answers a tool: its parsed arguments and the call's context in, the result out. */
export type ToolHandler<Tool extends HandledTool, Ctx = CallContext> = (
  args: ArgsOf<Tool>,
  ctx: Ctx,
) => unknown;

interface Entry<Ctx> {
  handler: (args: Record<string, unknown>, ctx: Ctx) => unknown;
  owner: string;
}

/**
 * The handlers of one set of tools (the sessionboxer tools answered on the control plane, the
 * Auto QA tools), each registered by the module that owns the tool. A tool gets exactly one:
 * a second registration throws at once, and `assertComplete` (run at boot) names every tool
 * still without one, so a tool can never be listed to agents and then fail as unknown.
 */
export class ToolHandlers<Ctx = CallContext> {
  private readonly entries = new Map<string, Entry<Ctx>>();
  private readonly known: Set<string>;

  constructor(
    readonly what: string,
    private readonly tools: readonly HandledTool[],
  ) {
    this.known = new Set(tools.map((t) => t.name));
  }

  /** `owner` (the registering module) is named when a tool gets two handlers. */
  register<Tool extends HandledTool>(
    tool: Tool,
    handler: ToolHandler<Tool, Ctx>,
    owner: string,
  ): void {
    if (!this.known.has(tool.name)) throw new Error(`${tool.name} is not a ${this.what}`);
    const earlier = this.entries.get(tool.name);
    if (earlier) {
      throw new Error(
        `${this.what} ${tool.name} has two handlers: ${earlier.owner} and ${owner} (one owner per tool)`,
      );
    }
    this.entries.set(tool.name, { handler: handler as Entry<Ctx>['handler'], owner });
  }

  /** The tools that no module answers yet, in the registry's order. */
  missing(): string[] {
    return this.tools.map((t) => t.name).filter((n) => !this.entries.has(n));
  }

  /** The boot check: every tool has exactly one handler. */
  assertComplete(): void {
    const missing = this.missing();
    if (missing.length > 0) {
      throw new Error(`no handler for the ${this.what}s ${missing.join(', ')}`);
    }
  }

  /** Who answers `name` (for errors and docs), or undefined. */
  ownerOf(name: string): string | undefined {
    return this.entries.get(name)?.owner;
  }

  /** Runs the handler of `name` with arguments its parser already checked. */
  run(name: string, args: Record<string, unknown>, ctx: Ctx): Promise<unknown> {
    const entry = this.entries.get(name);
    if (!entry) return Promise.reject(new Error(`no handler for the ${this.what} ${name}`));
    return Promise.resolve().then(() => entry.handler(args, ctx));
  }
}
