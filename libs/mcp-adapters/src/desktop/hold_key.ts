import { ACTS, defineDesktopTool, OK } from './desktop-tool';
import { keys, SECONDS_MAX, seconds } from './fields';
import { KEY_NAMES_TEXT, pressesOf } from './key';
import type { DesktopPort } from './port';

/** Holds keys down for a while (long presses, or a modifier during another call). */
export function holdKeyTool() {
  return defineDesktopTool({
    name: 'hold_key',
    title: 'Hold keys down',
    description: [
      'Hold a key or combination down for duration seconds (more than 0, at most',
      `${SECONDS_MAX}), then release it: for a program that reacts to a long press, or to keep`,
      'a modifier down during another action, called meanwhile. text: the keys, as key takes',
      `them. ${KEY_NAMES_TEXT} Answers OK once released.`,
    ].join(' '),
    input: { text: keys('text'), duration: seconds('duration', true) },
    annotations: ACTS,
    route: 'box',
    handle: async (port: DesktopPort, args) => {
      await port.holdKey(pressesOf(args.text), args.duration);
      return OK;
    },
  });
}
