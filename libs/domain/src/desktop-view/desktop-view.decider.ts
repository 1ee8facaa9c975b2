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
 * watched box (a session's, a sandbox's). Who comes from the command's actor (the
 * connection), never from the data: a signed-in person, or for a sandbox the API key whose
 * sandbox token the page holds (the token's id beside it). The pixels and the input are
 * never recorded.
 */
export type DesktopTarget = 'session' | 'sandbox';

export type OpenDesktopView = Command<
  'OpenDesktopView',
  {
    target: DesktopTarget;
    targetId: string;
    viewId: string;
    control: boolean;
    /** The sandbox token the viewer holds (its id, never its secret); its actor is its key. */
    tokenId?: string;
  }
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
    /** The person's name, or `api-key:<id>` for a sandbox token's viewer. */
    by: string;
    tokenId?: string;
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
      const { target, targetId, control, tokenId } = command.data;
      const token = actor.kind === 'api-key' && target === 'sandbox' && tokenId !== undefined;
      if (actor.kind !== 'person' && !token) {
        throw new DomainError(
          ErrorCode.Forbidden,
          "only a signed-in person, or a sandbox token for its sandbox's, watches a desktop",
        );
      }
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
      if (actor.kind === 'person') {
        const by = actor.id;
        return [{ type: 'DesktopViewOpened', data: { target, targetId, viewId, control, by, at } }];
      }
      const by = actor.kind === 'api-key' ? `api-key:${actor.keyId}` : '';
      const data = {
        target,
        targetId,
        viewId,
        control,
        by,
        tokenId: exactId(tokenId!, 'tokenId'),
        at,
      };
      return [{ type: 'DesktopViewOpened', data }];
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
