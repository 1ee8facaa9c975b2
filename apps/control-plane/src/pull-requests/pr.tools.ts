import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  prAttachTool,
  prItemsTool,
  prListTool,
  prMarkAddressedTool,
  prTarget,
} from '@sessionboxer/mcp-adapters';
import { CallHandlers } from '../calls';
import { PullRequests } from './pull-requests.service';

/** The pull-request tools: attach one to the calling session, list, read and address items. */
@Injectable()
export class PullRequestTools implements OnModuleInit {
  constructor(
    private readonly handlers: CallHandlers,
    private readonly prs: PullRequests,
  ) {}

  onModuleInit(): void {
    const tools = this.handlers.sessionboxer;
    const owner = 'pull-requests';
    tools.register(
      prAttachTool,
      (args, ctx) => this.prs.attach(ctx.sessionId, prTarget(args), ctx.actor, ctx.key),
      owner,
    );
    tools.register(prListTool, (_args, ctx) => this.prs.list(ctx.sessionId), owner);
    tools.register(prItemsTool, ({ pr }, ctx) => this.prs.get(ctx.sessionId, pr), owner);
    tools.register(
      prMarkAddressedTool,
      ({ pr, itemIds }, ctx) =>
        this.prs.markAddressed(ctx.sessionId, pr, [...new Set(itemIds)], ctx.actor, ctx.nextKey()),
      owner,
    );
  }
}
