export { PullRequestsModule } from './pull-requests.module';
export { PullRequests } from './pull-requests.service';
export { ForgeError, type ForgeErrorCode, InvalidPrRefError } from './forge/index';
