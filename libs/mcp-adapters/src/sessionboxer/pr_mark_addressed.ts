import { z } from 'zod';
import { id, prId } from '../kit/fields';
import { defineTool } from '../kit/define-tool';

export const MARK_MAX_ITEMS = 100;

export const prMarkAddressedInput = {
  pr: prId('pr'),
  itemIds: z
    .array(id('itemIds[]'), {
      required_error: 'itemIds is required: the ids of the items from pr_items',
      invalid_type_error: 'itemIds must be an array of item ids',
    })
    .min(1, 'itemIds must list at least one item id')
    .max(MARK_MAX_ITEMS, `itemIds must list at most ${MARK_MAX_ITEMS} ids; mark more in batches`)
    // A repeated id counts once: the handler gets each id once.
    .transform((ids) => [...new Set(ids)]),
};

/** Marks review items of an attached pull request as addressed. */
export const prMarkAddressedTool = defineTool({
  name: 'pr_mark_addressed',
  title: 'Mark review items addressed',
  description: [
    'Mark items of an attached pull request as addressed once you have dealt with them; they',
    'show as addressed in the PRs pane. pr: the PR id "owner/repo#number";',
    `itemIds: 1–${MARK_MAX_ITEMS} item ids from pr_items (a repeated id counts once). Marking an`,
    'item again changes nothing. Returns { pr, items } as pr_items does, with the new state.',
  ].join(' '),
  input: prMarkAddressedInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  route: 'control-plane',
});
