import {
  DESKTOP_INPUT_ACTIONS,
  INPUT_AMOUNT_MAX,
  INPUT_HOLD_MAX_SECONDS,
  INPUT_REPEAT_MAX,
} from '@sessionboxer/domain/sandbox';
import { z } from 'zod';
import { input } from '../desktop/desktop-actions';
import { sandboxRef } from './fields';
import { sandboxTool } from './sandbox-tool';

const pixel = (what: string) => z.number().int().min(0).optional().describe(what);
/** Control characters other than newline and tab have no key that types them. */
const UNTYPABLE = /[\p{Cc}]/u;

export const sandboxInputTool = sandboxTool({
  name: 'sandbox_input',
  title: "Send one input to a sandbox's desktop",
  description:
    'Sends one click, keystroke, drag or scroll, or reads the pointer position. Actions: click (at x, y, or where the pointer is), move, down and up (the left button where the pointer is), drag (left button from x, y to to_x, to_y), type (text where the keyboard focus is), key (each key or combination in turn), hold (keys held together for seconds), scroll (wheel notches, at x, y when given), cursor (returns x and y). Returns done with the action, or x and y for cursor. A parameter given to an action that does not use it is refused.',
  input: {
    sandbox: sandboxRef(),
    action: z
      .enum(DESKTOP_INPUT_ACTIONS)
      .describe(`Required. ${DESKTOP_INPUT_ACTIONS.join(', ')}.`),
    x: pixel('click, move, drag, scroll: position in screen pixels. Give both x and y or neither.'),
    y: pixel('click, move, drag, scroll: position in screen pixels.'),
    to_x: pixel('drag: required, where the drag ends.'),
    to_y: pixel('drag: required, where the drag ends.'),
    text: z
      .string()
      .min(1)
      .max(10_000)
      .refine(
        (t) => !UNTYPABLE.test(t.replace(/[\n\t]/g, '')),
        'text may hold newlines and tabs but no other control characters (use key for those)',
      )
      .optional()
      .describe('type: required, the text to type.'),
    keys: z
      .array(z.string().min(1).max(100))
      .min(1)
      .max(100)
      .optional()
      .describe(
        'key, hold: required, each a key or combination, for example "Return" or "ctrl+l".',
      ),
    button: z.enum(['left', 'middle', 'right']).optional().describe('click: default left.'),
    count: z
      .number()
      .int()
      .min(1)
      .max(3)
      .optional()
      .describe('click: 1, 2 (double-click) or 3 (triple-click). Default 1.'),
    double: z
      .boolean()
      .optional()
      .describe('click: the same as count 2. Do not combine with count.'),
    modifiers: z
      .string()
      .max(40)
      .optional()
      .describe(
        'click, drag, scroll: keys held down, shift, ctrl, alt or super joined by +, for example ctrl+shift.',
      ),
    direction: z.enum(['up', 'down', 'left', 'right']).optional().describe('scroll: required.'),
    amount: z
      .number()
      .int()
      .min(1)
      .max(INPUT_AMOUNT_MAX)
      .optional()
      .describe('scroll: notches, 1 to 100. Default 3.'),
    repeat: z
      .number()
      .int()
      .min(1)
      .max(INPUT_REPEAT_MAX)
      .optional()
      .describe('key: press the keys this many times, 1 to 100. Default 1.'),
    seconds: z
      .number()
      .min(0)
      .max(INPUT_HOLD_MAX_SECONDS)
      .optional()
      .describe('hold: required, how long to hold the keys, 0 to 300. Decimals are allowed.'),
  },
  scope: 'sandboxes:write',
  annotations: { readOnlyHint: false, destructiveHint: false },
  handle: (api, caller, args) => input(api.desktop, caller, args),
});
