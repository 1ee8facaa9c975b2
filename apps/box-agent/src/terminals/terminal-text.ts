/**
 * Terminal output as a person reading the pane would see it, for terminal_read: no colours,
 * cursor moves, window titles or bash's bracketed-paste switches (`ESC[?2004h`, `ESC[200~`).
 */
const ESCAPES = new RegExp(
  [
    // CSI: colours, cursor moves, modes such as ?2004h and the paste markers 200~ / 201~
    '\\x1b\\[[0-?]*[ -/]*[@-~]',
    // OSC: window titles, hyperlinks, shell integration; ended by BEL or ST (or cut off)
    '\\x1b\\][^\\x07\\x1b]*(?:\\x07|\\x1b\\\\)?',
    // DCS, SOS, PM, APC strings
    '\\x1b[PX^_][^\\x1b]*(?:\\x1b\\\\)?',
    // the rest: charset selection, keypad modes, save/restore cursor
    '\\x1b[ -/]*[0-~]',
    // the 8-bit CSI
    '\\x9b[0-?]*[ -/]*[@-~]',
  ].join('|'),
  'g',
);
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const OTHER_CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;
// eslint-disable-next-line no-control-regex -- a backspace erasing the character before it
const BACKSPACE = /[^\n\x08]\x08/g;

export function stripTerminalEscapes(raw: string): string {
  return raw.replace(ESCAPES, '');
}

/** A carriage return moves back to the line start, so later text overwrites earlier text. */
function applyCarriageReturns(line: string): string {
  return line.split('\r').reduce((shown, segment) => segment + shown.slice(segment.length), '');
}

function applyBackspaces(text: string): string {
  let previous: string;
  let current = text;
  do {
    previous = current;
    current = current.replace(BACKSPACE, '');
  } while (current !== previous);
  return current;
}

/** The last `count` lines of the rendered output, trailing blank lines left out. */
export function renderLastLines(raw: string, count: number): string {
  const plain = applyBackspaces(stripTerminalEscapes(raw).replace(/\r\n/g, '\n'));
  const lines = plain.split('\n').map((l) => applyCarriageReturns(l).replace(OTHER_CONTROLS, ''));
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  return lines.slice(-count).join('\n');
}
