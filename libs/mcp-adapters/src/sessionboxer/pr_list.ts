import { defineTool } from '../kit/define-tool';

export const prListInput = {};

/** The pull requests attached to the calling session. */
export const prListTool = defineTool({
  name: 'pr_list',
  title: 'List attached pull requests',
  description: [
    'Returns the pull requests attached to this session, as an array of summaries: id',
    '("owner/repo#number", what pr_items and pr_mark_addressed take), owner, repo, number, url,',
    'title, state (open | closed | merged), checks { passed, failed, pending } and unaddressed',
    '(review items not yet marked addressed). Empty when none is attached (see pr_attach).',
  ].join(' '),
  input: prListInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  route: 'control-plane',
});
