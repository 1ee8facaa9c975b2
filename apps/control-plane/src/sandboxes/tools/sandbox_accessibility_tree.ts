import { A11Y_DEPTH_MAX } from '@sessionboxer/domain/sandbox';
import { z } from 'zod';
import { accessibilityTree } from '../desktop/a11y/accessibility';
import { sandboxRef } from './fields';
import { sandboxTool } from './sandbox-tool';

export const sandboxAccessibilityTreeTool = sandboxTool({
  name: 'sandbox_accessibility_tree',
  title: "What is on a sandbox's screen, as a tree of nodes",
  description:
    'Returns what is on screen as a tree of applications and their nodes: apps, nodes and truncated. Each node has ref (for sandbox_accessibility_action, for example n42), role, name, states, bounds ([x, y, width, height] in screenshot pixels), actions, text for fields, and children. Nodes with no name, text or action are left out, and their children take their place. truncated is true when the tree passed 4,000 nodes; narrow it with app or depth. Refs are valid until the tree is read again. The accessibility tree usually needs fewer steps and tokens than screenshots. Fails with no_desktop when the desktop is not running.',
  input: {
    sandbox: sandboxRef(),
    app: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('Only this application, for example chromium. Default all.'),
    depth: z
      .number()
      .int()
      .min(1)
      .max(A11Y_DEPTH_MAX)
      .optional()
      .describe('Maximum depth, 1 to 200 (the applications are depth 1). Default 60.'),
    include_hidden: z
      .boolean()
      .optional()
      .describe('Include nodes that are not on screen. Default false.'),
  },
  scope: 'sandboxes:read',
  annotations: { readOnlyHint: true },
  handle: (api, caller, args) => accessibilityTree(api.desktop, caller, args),
});
