import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  approvalWaitTool,
  sessionCreateTool,
  sessionForkTool,
  sessionGetTool,
  sessionMessageTool,
  sessionsListTool,
  sessionStopTool,
  sessionWaitTool,
  type CallContext,
} from '@sessionboxer/mcp-adapters';
import { CallHandlers } from '../calls';
import { CallerOtherSessions, OtherSessions } from './caller-other-sessions';

/** The Other sessions tools: list, read, create, fork, message, wait for and stop sessions. */
@Injectable()
export class OtherSessionsTools implements OnModuleInit {
  constructor(
    private readonly handlers: CallHandlers,
    private readonly others: OtherSessions,
  ) {}

  onModuleInit(): void {
    const tools = this.handlers.sessionboxer;
    const owner = 'other-sessions';
    const as = (ctx: CallContext) =>
      new CallerOtherSessions(this.others, ctx.sessionId, ctx.callId);
    tools.register(sessionsListTool, (_a, ctx) => as(ctx).listSessions(), owner);
    tools.register(sessionGetTool, ({ session }, ctx) => as(ctx).getSession(session), owner);
    tools.register(sessionCreateTool, (args, ctx) => as(ctx).createSession(args), owner);
    tools.register(sessionForkTool, ({ turn }, ctx) => as(ctx).forkSession(turn), owner);
    tools.register(
      sessionMessageTool,
      ({ session, text, when }, ctx) => as(ctx).messageSession(session, text, when),
      owner,
    );
    tools.register(
      sessionWaitTool,
      ({ session, timeout_seconds }, ctx) => as(ctx).waitSession(session, timeout_seconds),
      owner,
    );
    tools.register(sessionStopTool, ({ session }, ctx) => as(ctx).stopSession(session), owner);
    tools.register(
      approvalWaitTool,
      ({ id, timeout_seconds }, ctx) => as(ctx).waitApproval(id, timeout_seconds),
      owner,
    );
  }
}
