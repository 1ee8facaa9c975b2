import { Injectable, Logger } from '@nestjs/common';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import {
  callFrame,
  parseControlPlaneCall,
  parseE2eCall,
  policyRefusal,
  toolScope,
  type CallResult,
} from '@sessionboxer/mcp-adapters';
import type { z } from 'zod';
import { callContext } from '../calls';
import { CallHandlers } from '../calls';
import { CredentialsService } from '../settings';
import { toErrorAnswer } from '../errors/error-answer';
import { PolicyService } from '../settings';
import { McpRelays } from '../mcp-registry';
import { DesktopCalls } from './desktop-calls';
import { describe } from './zod-text';

const REMEMBERED = 2000;
const RELAY_REMEMBERED_MS = 60_000;

/** One tool call answered: for whoever watches calls (the metrics module). */
export interface CallOutcome {
  route: string;
  tool: string;
  /** `ok`, or the error code the box was answered with. */
  outcome: string;
  seconds: number;
}

/**
 * Answers a box's tool calls: validates the frame, then the arguments with the tool's own
 * schema and checks (the same code that ran in the box), runs the handler the tool's module
 * registered with a context bound to the calling session, and answers once per callId. A call resent after a reconnect joins the running one or gets the remembered
 * answer; across a control-plane restart the command ids derived from the callId keep it
 * from taking effect twice.
 */
@Injectable()
export class CallService {
  private readonly calls = new Map<string, Promise<CallResult>>();
  private readonly logger = new Logger('BoxCalls');
  private readonly watchers = new Set<(call: CallOutcome) => void>();

  constructor(
    private readonly handlers: CallHandlers,
    private readonly desktop: DesktopCalls,
    private readonly credentials: CredentialsService,
    private readonly policy: PolicyService,
    private readonly relays: McpRelays,
  ) {}

  /** Tells `watcher` of every call run (not of a repeat answered from memory). */
  onCall(watcher: (call: CallOutcome) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  handle(sessionId: string, raw: unknown): Promise<CallResult> {
    const frame = callFrame.safeParse(raw);
    const rawId = (raw as { callId?: unknown } | null)?.callId;
    if (!frame.success) {
      const callId = typeof rawId === 'string' ? rawId : '';
      return Promise.resolve(
        failure(callId, new DomainError(ErrorCode.ValidationFailed, describe(frame.error))),
      );
    }
    const key = `${sessionId}/${frame.data.callId}`;
    let answer = this.calls.get(key);
    if (!answer) {
      answer = this.timed(frame.data, this.run(sessionId, frame.data));
      this.calls.set(key, answer);
      if (this.calls.size > REMEMBERED) this.calls.delete(this.calls.keys().next().value as string);
      // A relay's answers (pages of terminal output, every few seconds a keepalive) are kept
      // only as long as a resend after a reconnect could ask again, not among the last 2,000.
      if (frame.data.route === 'relay') {
        const remembered = answer;
        void answer.finally(() => {
          setTimeout(() => {
            if (this.calls.get(key) === remembered) this.calls.delete(key);
          }, RELAY_REMEMBERED_MS).unref();
        });
      }
    }
    return answer;
  }

  private async timed(
    frame: { route: string; tool: string },
    running: Promise<CallResult>,
  ): Promise<CallResult> {
    const started = performance.now();
    const result = await running;
    const seconds = (performance.now() - started) / 1000;
    const outcome = result.ok ? 'ok' : result.error.code;
    for (const watch of this.watchers)
      watch({ route: frame.route, tool: frame.tool, outcome, seconds });
    return result;
  }

  private async run(sessionId: string, frame: z.infer<typeof callFrame>): Promise<CallResult> {
    const { callId } = frame;
    try {
      if (frame.route === 'desktop') {
        const result = await this.desktop.handle(sessionId, callId, frame.tool, frame.args);
        return { callId, ok: true, result };
      }
      // A message of a registry server's connection: that server decides, as the session.
      if (frame.route === 'relay') {
        const result = await this.relays.handle(sessionId, frame.tool, frame.args);
        return { callId, ok: true, result };
      }
      // The sessionboxer and Auto QA tools act through Sessionboxer: the policy decides, and
      // what they are given can end up in an event (a title, a notification), so no credential
      // may. Desktop calls are neither: typing a key into a login form is work.
      // A tool that acts on the caller only needs no policy: it is read when one is asked.
      const policy = () => this.policy.forCall(sessionId);
      const ctx = callContext(sessionId, callId, policy);
      if (toolScope(frame.tool) !== 'self') {
        const refusal = policyRefusal(frame.tool, await ctx.policy());
        if (refusal !== null) throw new DomainError(ErrorCode.Forbidden, refusal);
      }
      const args = this.credentials.mask(frame.args);
      const result =
        frame.route === 'e2e'
          ? await this.handlers.e2e.run(frame.tool, parseE2eCall(frame.tool, args), ctx)
          : await this.handlers.sessionboxer.run(
              frame.tool,
              parseControlPlaneCall(frame.tool, args),
              ctx,
            );
      return { callId, ok: true, result };
    } catch (e) {
      return failure(callId, e, this.logger);
    }
  }
}

function failure(callId: string, e: unknown, logger?: Logger): CallResult {
  const { code, message } = toErrorAnswer(e, logger);
  return { callId, ok: false, error: { code, message } };
}
