import {
  parseKeys,
  type KeyCombo,
  type MouseButton,
  type Point,
  type ScreenSize,
  type ScrollDirection,
} from '@sessionboxer/mcp-adapters/desktop';
import {
  badArgument,
  type DesktopInputAction,
  type DesktopInputFacts,
} from '@sessionboxer/domain/sandbox';

/** sandbox_input's arguments as zod checked their types and ranges. */
export interface InputArgs {
  sandbox: string;
  action: DesktopInputAction;
  x?: number;
  y?: number;
  to_x?: number;
  to_y?: number;
  text?: string;
  keys?: string[];
  button?: MouseButton;
  count?: number;
  double?: boolean;
  modifiers?: string;
  direction?: ScrollDirection;
  amount?: number;
  repeat?: number;
  seconds?: number;
}

type Param = Exclude<keyof InputArgs, 'sandbox' | 'action'>;

/** The spec's "Used by" column: the parameters each action takes. */
export const INPUT_USES: Readonly<Record<DesktopInputAction, readonly Param[]>> = {
  click: ['x', 'y', 'button', 'count', 'double', 'modifiers'],
  move: ['x', 'y'],
  down: [],
  up: [],
  drag: ['x', 'y', 'to_x', 'to_y', 'modifiers'],
  type: ['text'],
  key: ['keys', 'repeat'],
  hold: ['keys', 'seconds'],
  scroll: ['x', 'y', 'direction', 'amount', 'modifiers'],
  cursor: [],
};

const REQUIRED: Partial<Record<DesktopInputAction, readonly Param[]>> = {
  move: ['x', 'y'],
  drag: ['x', 'y', 'to_x', 'to_y'],
  type: ['text'],
  key: ['keys'],
  hold: ['keys', 'seconds'],
  scroll: ['direction'],
};

const MODIFIERS = ['shift', 'ctrl', 'alt', 'super'];

/** One checked input, ready for the engine. */
export interface InputPlan {
  action: DesktopInputAction;
  at?: Point;
  to?: Point;
  button: MouseButton;
  count: number;
  modifiers?: KeyCombo;
  presses: KeyCombo[];
  text: string;
  direction: ScrollDirection;
  amount: number;
  seconds: number;
  /** What the event records. */
  facts: DesktopInputFacts;
}

function pixel(args: InputArgs, field: 'x' | 'y' | 'to_x' | 'to_y', screen: ScreenSize) {
  const value = args[field];
  if (value === undefined) return undefined;
  const max = (field.endsWith('x') ? screen.width : screen.height) - 1;
  if (value > max) {
    throw badArgument(
      field,
      `${field} must be from 0 to ${max}: the screen is ${screen.width}x${screen.height}`,
    );
  }
  return value;
}

function keyList(keys: string[]): KeyCombo[] {
  return keys.map((key, i) => {
    const parsed = parseKeys(key);
    if ('error' in parsed) throw badArgument('keys', `keys[${i}]: ${parsed.error}`);
    if (parsed.presses.length !== 1) {
      throw badArgument('keys', `keys[${i}] must be one key or combination, such as "ctrl+l"`);
    }
    return parsed.presses[0];
  });
}

function modifierCombo(text: string | undefined): KeyCombo | undefined {
  if (text === undefined) return undefined;
  const keys = text.split('+');
  const bad = keys.find((k) => !MODIFIERS.includes(k));
  if (bad !== undefined) {
    throw badArgument(
      'modifiers',
      `modifiers must be shift, ctrl, alt or super joined by +, such as ctrl+shift; ${JSON.stringify(bad)} is none of them`,
    );
  }
  return keys;
}

/**
 * The spec's rules: a parameter given to an action that does not use it is refused naming
 * it; required ones must be there; x and y both or neither; count and double not together;
 * positions on the screen.
 */
export function checkInput(args: InputArgs, screen: ScreenSize): InputPlan {
  const { action } = args;
  const uses = INPUT_USES[action];
  for (const key of Object.keys(args) as (keyof InputArgs)[]) {
    if (key === 'sandbox' || key === 'action' || args[key] === undefined) continue;
    if (!uses.includes(key)) {
      const takes = uses.length ? `it takes ${uses.join(', ')}` : 'it takes no other parameter';
      throw badArgument(key, `${key} is not used by action ${action}: ${takes}`);
    }
  }
  for (const key of REQUIRED[action] ?? []) {
    if (args[key] === undefined) throw badArgument(key, `${key} is required for action ${action}`);
  }
  if ((args.x === undefined) !== (args.y === undefined)) {
    const missing = args.x === undefined ? 'x' : 'y';
    throw badArgument(missing, `give both x and y, or neither (${missing} is missing)`);
  }
  if (args.count !== undefined && args.double !== undefined) {
    throw badArgument('double', 'double is the same as count 2: do not combine it with count');
  }
  const x = pixel(args, 'x', screen);
  const y = pixel(args, 'y', screen);
  const toX = pixel(args, 'to_x', screen);
  const toY = pixel(args, 'to_y', screen);
  const presses = args.keys === undefined ? [] : keyList(args.keys);
  const repeat = args.repeat ?? 1;
  const plan: InputPlan = {
    action,
    at: x !== undefined && y !== undefined ? { x, y } : undefined,
    to: toX !== undefined && toY !== undefined ? { x: toX, y: toY } : undefined,
    button: args.button ?? 'left',
    count: args.double ? 2 : (args.count ?? 1),
    modifiers: modifierCombo(args.modifiers),
    presses: action === 'key' ? Array.from({ length: repeat }, () => presses).flat() : presses,
    text: args.text ?? '',
    direction: args.direction ?? 'down',
    amount: args.amount ?? 3,
    seconds: args.seconds ?? 0,
    facts: { action },
  };
  plan.facts = factsOf(plan, args);
  return plan;
}

/** What happened, without where or what was typed. */
function factsOf(plan: InputPlan, args: InputArgs): DesktopInputFacts {
  switch (plan.action) {
    case 'click':
      return { action: 'click', button: plan.button, count: plan.count };
    case 'type':
      return { action: 'type', characters: Array.from(plan.text).length };
    case 'key':
      return { action: 'key', keys: args.keys ?? [], count: args.repeat ?? 1 };
    case 'hold':
      return { action: 'hold', keys: args.keys ?? [] };
    case 'scroll':
      return { action: 'scroll', direction: plan.direction, amount: plan.amount };
    case 'move':
    case 'down':
    case 'up':
    case 'drag':
    case 'cursor':
      return { action: plan.action };
  }
}
