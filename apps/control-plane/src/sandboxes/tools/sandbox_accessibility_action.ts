import { z } from 'zod';
import { accessibilityAction } from '../desktop/a11y/accessibility';
import { sandboxRef } from './fields';
import { sandboxTool } from './sandbox-tool';

export const sandboxAccessibilityActionTool = sandboxTool({
  name: 'sandbox_accessibility_action',
  title: 'Act on a node of the accessibility tree',
  description:
    "Acts on one node by its ref from sandbox_accessibility_tree. Actions: press (press a button or follow a link), focus (move keyboard focus to the node), set-text (replace the field's text with text), read (return the node's current state), or any name in the node's actions. Returns ref and done, or the node for read. Refs are valid until the tree is read again. If the node has changed since, the action is refused with stale_ref: call sandbox_accessibility_tree again and retry.",
  input: {
    sandbox: sandboxRef(),
    ref: z
      .string()
      .regex(/^n[1-9][0-9]{0,9}$/, 'must be a ref from sandbox_accessibility_tree, for example n42')
      .describe('Required. A ref from sandbox_accessibility_tree, for example n42.'),
    action: z
      .string()
      .min(1)
      .max(100)
      .describe("Required. press, focus, set-text, read, or any name in the node's actions."),
    text: z
      .string()
      .max(100_000)
      .optional()
      .describe("Required for set-text. The field's new text."),
  },
  scope: 'sandboxes:write',
  annotations: { readOnlyHint: false, destructiveHint: false },
  handle: (api, caller, args) => accessibilityAction(api.desktop, caller, args),
});
