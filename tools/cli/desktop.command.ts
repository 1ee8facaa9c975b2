import * as fs from 'node:fs';

/**
 * `sessionboxer sandbox desktop|open-url|screenshot|input`: the sandbox desktop's tools
 * (sandbox_desktop, sandbox_open_url, sandbox_screenshot, sandbox_input) with an API key,
 * through sandbox.command's REST call. The server checks every argument.
 */
export const DESKTOP_HELP = `  sessionboxer sandbox desktop SANDBOX [start|stop|status] [--resolution WxH]
  sessionboxer sandbox open-url SANDBOX URL...
  sessionboxer sandbox screenshot SANDBOX [--region X0,Y0,X1,Y1] [--out FILE]   (default screenshot.png)
  sessionboxer sandbox input SANDBOX ACTION [--x N --y N] [--to-x N --to-y N] [--text T]
        [--keys K]... [--button left|middle|right] [--count N] [--double] [--modifiers ctrl+shift]
        [--direction up|down|left|right] [--amount N] [--repeat N] [--seconds S]`;

export const DESKTOP_VERBS = ['desktop', 'open-url', 'screenshot', 'input'];

export const DESKTOP_OPTIONS = {
  resolution: { type: 'string' },
  region: { type: 'string' },
  x: { type: 'string' },
  y: { type: 'string' },
  'to-x': { type: 'string' },
  'to-y': { type: 'string' },
  text: { type: 'string' },
  keys: { type: 'string', multiple: true },
  button: { type: 'string' },
  count: { type: 'string' },
  double: { type: 'boolean' },
  modifiers: { type: 'string' },
  direction: { type: 'string' },
  amount: { type: 'string' },
  repeat: { type: 'string' },
  seconds: { type: 'string' },
} as const;

interface DesktopValues {
  resolution?: string;
  region?: string;
  x?: string;
  y?: string;
  'to-x'?: string;
  'to-y'?: string;
  text?: string;
  keys?: string[];
  button?: string;
  count?: string;
  double?: boolean;
  modifiers?: string;
  direction?: string;
  amount?: string;
  repeat?: string;
  seconds?: string;
}

const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
const drop = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined));

/** The tool and arguments of a desktop command line; null when it means nothing. */
export function desktopCall(
  verb: string,
  rest: string[],
  v: DesktopValues,
): [string, Record<string, unknown>] | null {
  const sandbox = rest[0];
  switch (verb) {
    case 'desktop':
      return ['sandbox_desktop', drop({ sandbox, action: rest[1], resolution: v.resolution })];
    case 'open-url':
      return ['sandbox_open_url', { sandbox, urls: rest.slice(1) }];
    case 'screenshot':
      return [
        'sandbox_screenshot',
        drop({ sandbox, region: v.region?.split(',').map((n) => Number(n)) }),
      ];
    case 'input':
      return [
        'sandbox_input',
        drop({
          sandbox,
          action: rest[1],
          x: num(v.x),
          y: num(v.y),
          to_x: num(v['to-x']),
          to_y: num(v['to-y']),
          text: v.text,
          keys: v.keys,
          button: v.button,
          count: num(v.count),
          double: v.double,
          modifiers: v.modifiers,
          direction: v.direction,
          amount: num(v.amount),
          repeat: num(v.repeat),
          seconds: num(v.seconds),
        }),
      ];
    default:
      return null;
  }
}

/** What a person sees: the screenshot written to a file, the rest as JSON. */
export function desktopHuman(tool: string, body: Record<string, unknown>, out?: string): string {
  if (tool !== 'sandbox_screenshot') return JSON.stringify(body, null, 2);
  const file = out ?? 'screenshot.png';
  fs.writeFileSync(file, Buffer.from(String(body.data), 'base64'));
  return `${String(body.width)}x${String(body.height)} PNG to ${file}`;
}
