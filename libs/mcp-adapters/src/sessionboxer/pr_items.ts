import { prId } from '../kit/fields';
import { defineTool } from '../kit/define-tool';

export const prItemsInput = { pr: prId('pr') };

/** The review comments, reviews and checks of one attached pull request. */
export const prItemsTool = defineTool({
  name: 'pr_items',
  title: 'Read review comments and checks',
  description: [
    'Returns { pr, items } for one attached pull request: the review comments, reviews and',
    'check results, each { id, kind (review_comment | review | check), author, body, path, line,',
    'conclusion (for checks), url, createdAt, addressed }. pr is the PR id "owner/repo#number" as',
    'pr_list returns it. After you fix what an item asks, mark it with pr_mark_addressed.',
  ].join(' '),
  input: prItemsInput,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  route: 'control-plane',
});
