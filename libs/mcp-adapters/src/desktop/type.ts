import { ACTS, defineDesktopTool, OK } from './desktop-tool';
import { TYPE_TEXT_MAX, typedText } from './fields';
import type { DesktopPort } from './port';

/** Types text at the current keyboard focus, as a keyboard would. */
export function typeTool() {
  return defineDesktopTool({
    name: 'type',
    title: 'Type text',
    description: [
      'Type a string at the current focus, as a keyboard would (click the field first). text:',
      `1–${TYPE_TEXT_MAX} characters; a newline presses Return and a tab presses Tab. It is`,
      'typed in chunks of 50 characters with a pause between keys (12 ms on a Linux desktop,',
      '40 ms on a Windows or macOS one), and arrives exactly as given: nothing in it is',
      'interpreted. For shortcuts and special keys use key. Answers OK.',
    ].join(' '),
    input: { text: typedText('text') },
    annotations: ACTS,
    route: 'box',
    handle: async (port: DesktopPort, args) => {
      await port.type(args.text);
      return OK;
    },
  });
}
