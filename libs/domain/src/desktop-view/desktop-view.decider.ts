import {
  assertNever,
  DomainError,
  ErrorCode,
  type Command,
  type Decider,
  type DomainEvent,
} from '../kernel';
import { exactId } from '../kernel/validation';

/**
 * Who watched a box's desktop live and who took control of it, and when: one stream per
 * watched box (a session's; a sandbox's later). Who comes from the command's actor (the
 * connection), never from the data. The pixels and the input are never recorded.
 */
export type DesktopTarget = 'session' | 'sandbox';

export type OpenDesktopView = Command<
  'OpenDesktopView',
  { target: DesktopTarget; targetId: string; viewId: string; control: boolean }
>;
export type CloseDesktopView = Command<
  'CloseDesktopView',
  { viewId: string; reason: DesktopViewEndReason }
>;
export type DesktopViewCommand = OpenDesktopView | CloseDesktopView;

/** closed: the person left; box_gone: the box or its daemon went away; failed: never started. */
export type DesktopViewEndReason = 'closed' | 'box_gone' | 'failed';
const END_REASONS: readonly DesktopViewEndReason[] = ['closed', 'box_gone', 'failed'];

export type DesktopViewOpened = DomainEvent<
  'DesktopViewOpened',
  {
    target: DesktopTarget;
    targetId: string;
    viewId: string;
    /** true: the person's keys and clicks reach the display; false: watching only. */
    control: boolean;
    by: string;
    at: string;
  }
>;
export type DesktopViewClosed = DomainEvent<
  'DesktopViewClosed',
  { viewId: string; reason: DesktopViewEndReason; at: string }
>;
export type DesktopViewEvent = DesktopViewOpened | DesktopViewClosed;

export const DESKTOP_VIEW_EVENT_TYPES: readonly DesktopViewEvent['type'][] = [
  'DesktopViewOpened',
  'DesktopViewClosed',
];

export function isDesktopViewEvent(event: { type: string }): event is DesktopViewEvent {
  return (DESKTOP_VIEW_EVENT_TYPES as readonly string[]).includes(event.type);
}

/** The views open now (id → control). */
export interface DesktopViewState {
  open: Readonly<Record<string, boolean>>;
}

/** At most this many views of one box at once (each is an x11vnc process in the box). */
export const DESKTOP_VIEWS_MAX = 8;

export function desktopViewStream(target: DesktopTarget, targetId: string): string {
  return `desktopview-${target}-${exactId(targetId, 'targetId')}`;
}

function decide(command: DesktopViewCommand, state: DesktopViewState): DesktopViewEvent[] {
  const { actor, at } = command.metadata;
  switch (command.type) {
    case 'OpenDesktopView': {
      if (actor.kind !== 'person') {
        throw new DomainError(ErrorCode.Forbidden, 'only a signed-in person watches a desktop');
      }
      const { target, targetId, control } = command.data;
      const viewId = exactId(command.data.viewId, 'viewId');
      if (target !== 'session' && target !== 'sandbox') {
        throw new DomainError(ErrorCode.ValidationFailed, 'target must be session or sandbox');
      }
      if (typeof control !== 'boolean') {
        throw new DomainError(ErrorCode.ValidationFailed, 'control must be true or false');
      }
      if (viewId in state.open) return [];
      if (Object.keys(state.open).length >= DESKTOP_VIEWS_MAX) {
        throw new DomainError(
          ErrorCode.LimitReached,
          `this desktop already has ${DESKTOP_VIEWS_MAX} live views open`,
        );
      }
      const by = actor.id;
      return [{ type: 'DesktopViewOpened', data: { target, targetId, viewId, control, by, at } }];
    }
    case 'CloseDesktopView': {
      const { viewId, reason } = command.data;
      if (!END_REASONS.includes(reason)) {
        throw new DomainError(
          ErrorCode.ValidationFailed,
          `reason must be one of ${END_REASONS.join(', ')}`,
        );
      }
      if (!(viewId in state.open)) return [];
      return [{ type: 'DesktopViewClosed', data: { viewId, reason, at } }];
    }
    default:
      return assertNever(command);
  }
}

function evolve(state: DesktopViewState, event: DesktopViewEvent): DesktopViewState {
  switch (event.type) {
    case 'DesktopViewOpened':
      return { open: { ...state.open, [event.data.viewId]: event.data.control } };
    case 'DesktopViewClosed': {
      const { [event.data.viewId]: _closed, ...open } = state.open;
      return { open };
    }
    default:
      return assertNever(event);
  }
}

export const desktopViewDecider: Decider<DesktopViewCommand, DesktopViewEvent, DesktopViewState> = {
  decide,
  evolve,
  initialState: { open: {} },
};
