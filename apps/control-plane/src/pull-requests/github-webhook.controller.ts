import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import type { Request } from 'express';
import type { RawBodyRequest } from '../errors/json-body';
import { verifyGitHubSignature, webhookPrRefs } from './forge';
import { SettingsService } from '../settings';
import { PrWatcher } from './pr-watcher';
import { Public } from '../auth';

/**
 * GitHub's webhook: a signed delivery about a PR makes the watcher poll that PR now. The body
 * is trusted only when its X-Hub-Signature-256 matches the secret in settings.
 */
@ApiTags('webhooks')
@Public()
@Controller('api/webhooks/github')
export class GitHubWebhookController {
  constructor(
    private readonly settings: SettingsService,
    private readonly watcher: PrWatcher,
  ) {}

  @Post()
  @HttpCode(202)
  @ApiOperation({ summary: 'GitHub webhook (pull_request, reviews, review comments, check runs)' })
  async receive(
    @Req() req: Request & RawBodyRequest,
    @Headers('x-github-event') event: string | undefined,
    @Headers('x-hub-signature-256') signature: string | undefined,
  ): Promise<{ accepted: true; polled: number }> {
    const { github } = await this.settings.current();
    if (!github.webhookSecret) {
      throw new DomainError(
        ErrorCode.NotFound,
        'GitHub webhooks are not configured: set github.webhookSecret in settings',
      );
    }
    if (!req.rawBody || !verifyGitHubSignature(github.webhookSecret, req.rawBody, signature)) {
      throw new DomainError(
        ErrorCode.Forbidden,
        'the X-Hub-Signature-256 of this delivery does not match the webhook secret',
      );
    }
    let polled = 0;
    for (const ref of webhookPrRefs(event, req.body)) {
      for (const sessionId of this.watcher.sessionsWith(ref)) {
        polled += 1;
        void this.watcher.pollNow(sessionId, ref);
      }
    }
    return { accepted: true, polled };
  }
}
