import { Injectable, type OnModuleInit } from '@nestjs/common';
import { scheduleCreateTool, scheduleListTool } from '@sessionboxer/mcp-adapters';
import { CallHandlers } from '../calls';
import { CallerSchedules, SchedulesForCalls } from './caller-schedules';

/** The scheduled-task tools: create one (for this session or, with All Sessions, others), list. */
@Injectable()
export class ScheduleTools implements OnModuleInit {
  constructor(
    private readonly handlers: CallHandlers,
    private readonly schedules: SchedulesForCalls,
  ) {}

  onModuleInit(): void {
    const tools = this.handlers.sessionboxer;
    const as = (sessionId: string, callId: string) =>
      new CallerSchedules(this.schedules, sessionId, callId);
    tools.register(
      scheduleCreateTool,
      (args, ctx) => as(ctx.sessionId, ctx.callId).createSchedule(args),
      'schedules',
    );
    tools.register(
      scheduleListTool,
      (_args, ctx) => as(ctx.sessionId, ctx.callId).listSchedules(),
      'schedules',
    );
  }
}
