import { z } from 'zod';
import { metadataField } from './fields';
import { sandboxTool } from './sandbox-tool';

export const sandboxListTool = sandboxTool({
  name: 'sandbox_list',
  title: "List the org's sandboxes",
  description:
    "Lists the org's sandboxes, newest first, with status, size, hourly price (cents_per_hour), spend (cost_cents) and metadata. all includes deleted ones; metadata keeps only sandboxes with every one of these keys and values. Returns { sandboxes }.",
  input: {
    all: z.boolean().optional().describe('Include deleted sandboxes. Default false.'),
    metadata: metadataField().optional(),
  },
  scope: 'sandboxes:read',
  annotations: { readOnlyHint: true },
  handle: (api, caller, args) =>
    Promise.resolve({ sandboxes: api.sandboxes.list(caller, args.all ?? false, args.metadata) }),
});
