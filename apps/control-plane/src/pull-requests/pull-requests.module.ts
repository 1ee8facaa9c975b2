import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings';
import { GitHubWebhookController } from './github-webhook.controller';
import { PrWatcher } from './pr-watcher';
import { PullRequestTools } from './pr.tools';
import { PrsController } from './prs.controller';
import { PullRequests } from './pull-requests.service';

/** PRs attached to sessions: the forge (GitHub), its webhook and poller, the PR tools. */
@Module({
  imports: [SettingsModule],
  controllers: [PrsController, GitHubWebhookController],
  providers: [PullRequests, PrWatcher, PullRequestTools],
  exports: [PullRequests],
})
export class PullRequestsModule {}
