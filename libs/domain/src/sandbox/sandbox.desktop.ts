import type { Command, DomainEvent } from '../kernel';
import { ErrorCode } from '../kernel/errors';
import { refusal } from './sandbox.refusals';

/**
 * A sandbox's desktop (the spec's sandbox_desktop, sandbox_open_url, sandbox_screenshot,
 * sandbox_input and the sandbox_accessibility_* tools): when it runs, at what size, and which desktop actions it supports. The
 * actions are fixed the first time a sandbox's desktop starts (SandboxDesktopStarted carries
 * them; later starts keep them), so an action a later release adds is refused on an older
 * sandbox with desktop_outdated. Pure; docs/SANDBOXES.md.
 */

/** The input actions of the spec's sandbox_input table. */
export const DESKTOP_INPUT_ACTIONS = [
  'click',
  'move',
  'down',
  'up',
  'drag',
  'type',
  'key',
  'hold',
  'scroll',
  'cursor',
] as const;
export type DesktopInputAction = (typeof DESKTOP_INPUT_ACTIONS)[number];

/** Every desktop action this release supports: the tools, and each input action. */
export const DESKTOP_ACTIONS: readonly string[] = [
  'open_url',
  'screenshot',
  ...DESKTOP_INPUT_ACTIONS.map((a) => `input.${a}`),
  'accessibility_tree',
  'accessibility_action',
];

export const DESKTOP_DEFAULT_RESOLUTION = '1280x800';
export const DESKTOP_MIN_SIZE = { width: 320, height: 240 } as const;
export const DESKTOP_MAX_SIZE = { width: 3840, height: 2400 } as const;
export const INPUT_AMOUNT_MAX = 100;
export const INPUT_REPEAT_MAX = 100;
export const INPUT_HOLD_MAX_SECONDS = 300;
export const OPEN_URLS_MAX = 20;
/** sandbox_accessibility_tree: depth 1 to 200 (default 60); truncated past this many nodes. */
export const A11Y_DEPTH_MAX = 200;
export const A11Y_DEPTH_DEFAULT = 60;
export const A11Y_NODES_MAX = 4000;
/** The actions sandbox_accessibility_action knows by name (a node's own actions besides). */
export const A11Y_ACTIONS = ['press', 'focus', 'set-text', 'read'] as const;

/** What an input was: the action and what it pressed, never a position or the typed text. */
export interface DesktopInputFacts {
  action: DesktopInputAction;
  button?: string;
  count?: number;
  keys?: string[];
  /** For type: how many characters, not which. */
  characters?: number;
  direction?: string;
  amount?: number;
}

/**
 * What an accessibility action did: which action on which application's node of which role,
 * never the node's name or the text set (a field's text may be a secret): only its length.
 */
export interface AccessibilityActionFacts {
  app: string;
  role: string;
  action: string;
  /** For set-text: how many characters, not which. */
  characters?: number;
}

export type SandboxDesktopStarted = DomainEvent<
  'SandboxDesktopStarted',
  {
    sandboxId: string;
    display: string;
    width: number;
    height: number;
    /** The desktop actions this sandbox supports (see DESKTOP_ACTIONS). */
    actions: string[];
    at: string;
  }
>;
/** requested: sandbox_desktop stop; lost: its processes were found gone (a box restarted). */
export type SandboxDesktopStopped = DomainEvent<
  'SandboxDesktopStopped',
  { sandboxId: string; reason: 'requested' | 'lost'; at: string }
>;
export type SandboxDesktopInputSent = DomainEvent<
  'SandboxDesktopInputSent',
  { sandboxId: string; input: DesktopInputFacts; at: string }
>;
export type SandboxDesktopAccessibilityActed = DomainEvent<
  'SandboxDesktopAccessibilityActed',
  { sandboxId: string; act: AccessibilityActionFacts; at: string }
>;
/** URLs may carry tokens: only how many were opened. */
export type SandboxDesktopUrlsOpened = DomainEvent<
  'SandboxDesktopUrlsOpened',
  { sandboxId: string; count: number; at: string }
>;

export type SandboxDesktopEvent =
  | SandboxDesktopStarted
  | SandboxDesktopStopped
  | SandboxDesktopInputSent
  | SandboxDesktopUrlsOpened
  | SandboxDesktopAccessibilityActed;

export const SANDBOX_DESKTOP_EVENT_TYPES: readonly SandboxDesktopEvent['type'][] = [
  'SandboxDesktopStarted',
  'SandboxDesktopStopped',
  'SandboxDesktopInputSent',
  'SandboxDesktopUrlsOpened',
  'SandboxDesktopAccessibilityActed',
];

export type StartSandboxDesktop = Command<
  'StartSandboxDesktop',
  { sandboxId: string; display: string; width: number; height: number; actions: string[] }
>;
export type StopSandboxDesktop = Command<
  'StopSandboxDesktop',
  { sandboxId: string; reason: 'requested' | 'lost' }
>;
export type RecordDesktopInput = Command<
  'RecordDesktopInput',
  { sandboxId: string; input: DesktopInputFacts }
>;
export type RecordUrlsOpened = Command<'RecordUrlsOpened', { sandboxId: string; count: number }>;
export type RecordAccessibilityAction = Command<
  'RecordAccessibilityAction',
  { sandboxId: string; act: AccessibilityActionFacts }
>;

export type SandboxDesktopCommand =
  | StartSandboxDesktop
  | StopSandboxDesktop
  | RecordDesktopInput
  | RecordUrlsOpened
  | RecordAccessibilityAction;

const COMMAND_TYPES: readonly string[] = [
  'StartSandboxDesktop',
  'StopSandboxDesktop',
  'RecordDesktopInput',
  'RecordUrlsOpened',
  'RecordAccessibilityAction',
];

export function isDesktopCommand(c: { type: string }): c is SandboxDesktopCommand {
  return COMMAND_TYPES.includes(c.type);
}

export function isDesktopEvent(e: { type: string }): e is SandboxDesktopEvent {
  return (SANDBOX_DESKTOP_EVENT_TYPES as readonly string[]).includes(e.type);
}

/** The desktop as the sandbox's events say; `actions` stays after a stop. */
export interface SandboxDesktopState {
  running: boolean;
  display: string;
  width: number;
  height: number;
  actions: string[];
  startedAt: string;
}

export function noDesktop(name: string): Error {
  return refusal(
    'no_desktop',
    ErrorCode.InvalidState,
    `the desktop of sandbox ${name} is not running: start it with sandbox_desktop`,
  );
}

/**
 * The running desktop, if it supports `action`: no_desktop when it does not run,
 * desktop_outdated when the sandbox's desktop started before the action existed.
 */
export function desktopFor(
  desktop: SandboxDesktopState | null | undefined,
  name: string,
  action: string,
): SandboxDesktopState {
  if (!desktop?.running) throw noDesktop(name);
  if (!desktop.actions.includes(action)) {
    throw refusal(
      'desktop_outdated',
      ErrorCode.InvalidState,
      `sandbox ${name} was made before the desktop action ${action} existed: create a new sandbox to use it`,
      { action },
    );
  }
  return desktop;
}

/** The events of a desktop command, given the sandbox is running (the decider checks that). */
export function decideDesktop(
  command: SandboxDesktopCommand,
  desktop: SandboxDesktopState | null,
  name: string,
): SandboxDesktopEvent[] {
  const { sandboxId } = command.data;
  const at = command.metadata.at;
  switch (command.type) {
    case 'StartSandboxDesktop': {
      if (desktop?.running) return [];
      const { display, width, height } = command.data;
      // The first start fixes the actions; a later release's start keeps the sandbox's own.
      const actions = desktop?.actions ?? [...command.data.actions];
      return [
        { type: 'SandboxDesktopStarted', data: { sandboxId, display, width, height, actions, at } },
      ];
    }
    case 'StopSandboxDesktop':
      if (!desktop?.running) return [];
      return [
        { type: 'SandboxDesktopStopped', data: { sandboxId, reason: command.data.reason, at } },
      ];
    case 'RecordDesktopInput':
      desktopFor(desktop, name, `input.${command.data.input.action}`);
      return [
        { type: 'SandboxDesktopInputSent', data: { sandboxId, input: command.data.input, at } },
      ];
    case 'RecordUrlsOpened':
      desktopFor(desktop, name, 'open_url');
      return [
        { type: 'SandboxDesktopUrlsOpened', data: { sandboxId, count: command.data.count, at } },
      ];
    case 'RecordAccessibilityAction':
      desktopFor(desktop, name, 'accessibility_action');
      return [
        {
          type: 'SandboxDesktopAccessibilityActed',
          data: { sandboxId, act: command.data.act, at },
        },
      ];
  }
}

export function evolveDesktop(
  desktop: SandboxDesktopState | null,
  event: SandboxDesktopEvent,
): SandboxDesktopState | null {
  switch (event.type) {
    case 'SandboxDesktopStarted': {
      const { display, width, height, actions, at } = event.data;
      return { running: true, display, width, height, actions, startedAt: at };
    }
    case 'SandboxDesktopStopped':
      return desktop && { ...desktop, running: false };
    case 'SandboxDesktopInputSent':
    case 'SandboxDesktopUrlsOpened':
    case 'SandboxDesktopAccessibilityActed':
      return desktop;
  }
}
