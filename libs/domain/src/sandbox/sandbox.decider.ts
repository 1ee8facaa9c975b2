import { assertNever, ErrorCode, type Decider } from '../kernel';
import { isPlainObject } from '../kernel/validation';
import { decideDesktop, evolveDesktop, isDesktopCommand, isDesktopEvent } from './sandbox.desktop';
import { DEFAULT_ENVIRONMENT } from './sandbox.limits';
import type { CreateSandbox, SandboxCommand, StopSandbox, UpdateSandbox } from './sandbox.commands';
import type { SandboxEvent, SandboxSettings } from './sandbox.events';
import { badArgument, noSandbox, refusal } from './sandbox.refusals';
import { initialSandboxState, switchPhase, type SandboxState } from './sandbox.state';
import {
  validFlag,
  validIdempotencyKey,
  validIdleTimeout,
  validMetadata,
  validSandboxName,
  validSecretNames,
  validSize,
} from './sandbox.validation';

export function sandboxStream(sandboxId: string): string {
  return `sandbox-${sandboxId}`;
}

/** The default name: `sb-` and six hex digits, taken from the id (so a retry gets the same). */
export function defaultSandboxName(sandboxId: string): string {
  return `sb-${sandboxId.replace(/[^0-9a-f]/g, '').slice(0, 6)}`;
}

const CREATE_KEYS = [
  'name',
  'size',
  'secrets',
  'environment',
  'idle_timeout_seconds',
  'stop_when_agents_finish',
  'metadata',
  'idempotency_key',
];
const UPDATE_KEYS = ['idle_timeout_seconds', 'stop_when_agents_finish', 'metadata'];

function known(args: Record<string, unknown>, keys: readonly string[]) {
  const unknown = Object.keys(args).filter((k) => !keys.includes(k));
  if (unknown.length > 0) {
    throw badArgument(
      unknown[0],
      `unknown parameter ${unknown.join(', ')}; expected ${keys.join(', ')}`,
    );
  }
}

/** The settings a create asks for, defaults applied; refuses the first bad parameter. */
export function sandboxSettings(command: CreateSandbox): SandboxSettings {
  const { sandboxId, orgId, args } = command.data;
  if (!isPlainObject(args)) throw badArgument('arguments', 'the arguments must be an object');
  known(args, CREATE_KEYS);
  const opt = <T>(key: string, check: (v: unknown) => T, fallback: T): T =>
    args[key] === undefined ? fallback : check(args[key]);
  return {
    sandboxId,
    orgId,
    name: opt('name', (v) => validSandboxName(v), defaultSandboxName(sandboxId)),
    size: opt('size', validSize, 'small'),
    secrets: opt('secrets', (v) => validSecretNames(v), []),
    environment: opt('environment', (v) => validSandboxName(v, 'environment'), DEFAULT_ENVIRONMENT),
    idleTimeoutSeconds: opt('idle_timeout_seconds', validIdleTimeout, 0),
    stopWhenAgentsFinish: opt(
      'stop_when_agents_finish',
      (v) => validFlag(v, 'stop_when_agents_finish'),
      false,
    ),
    metadata: opt('metadata', (v) => validMetadata(v), {}),
    idempotencyKey: opt('idempotency_key', validIdempotencyKey, null),
    forkedFrom: command.data.forkedFrom ?? null,
  };
}

function create(command: CreateSandbox, state: SandboxState): SandboxEvent[] {
  const settings = sandboxSettings(command);
  if (state.settings !== null) {
    // The same idempotency key again: the same sandbox, nothing new.
    if (
      settings.idempotencyKey !== null &&
      settings.idempotencyKey === state.settings.idempotencyKey
    )
      return [];
    throw refusal('name_taken', ErrorCode.AlreadyExists, `sandbox ${settings.sandboxId} exists`);
  }
  return [{ type: 'SandboxCreated', data: { ...settings, at: command.metadata.at } }];
}

function update(command: UpdateSandbox, state: SandboxState): SandboxEvent[] {
  const before = state.settings as SandboxSettings;
  const { args } = command.data;
  if (!isPlainObject(args)) throw badArgument('arguments', 'the arguments must be an object');
  known(args, UPDATE_KEYS);
  if (UPDATE_KEYS.every((k) => args[k] === undefined)) {
    throw badArgument(
      'arguments',
      'pass at least one of idle_timeout_seconds, stop_when_agents_finish and metadata',
    );
  }
  const idleTimeoutSeconds =
    args.idle_timeout_seconds === undefined
      ? before.idleTimeoutSeconds
      : validIdleTimeout(args.idle_timeout_seconds);
  const stopWhenAgentsFinish =
    args.stop_when_agents_finish === undefined
      ? before.stopWhenAgentsFinish
      : validFlag(args.stop_when_agents_finish, 'stop_when_agents_finish');
  const metadata = args.metadata === undefined ? before.metadata : validMetadata(args.metadata);
  const { sandboxId } = command.data;
  // Recorded even when equal: on a running sandbox the timeout counts from now.
  const data = {
    sandboxId,
    idleTimeoutSeconds,
    stopWhenAgentsFinish,
    metadata,
    at: command.metadata.at,
  };
  return [{ type: 'SandboxUpdated', data }];
}

function stop(command: StopSandbox, state: SandboxState): SandboxEvent[] {
  if (state.status === 'stopped') return [];
  if (state.status !== 'running') throw inState(state, 'stop');
  const { sandboxId, reason } = command.data;
  return [{ type: 'SandboxStopped', data: { sandboxId, reason, at: command.metadata.at } }];
}

function inState(state: SandboxState, action: string) {
  const name = state.settings?.name ?? '';
  if (state.status === 'deleted') {
    return refusal(
      'deleted',
      ErrorCode.InvalidState,
      `cannot ${action} sandbox ${name}: it was deleted`,
    );
  }
  return refusal(
    'not_running',
    ErrorCode.InvalidState,
    `cannot ${action} sandbox ${name}: it is ${state.status}`,
  );
}

function decide(command: SandboxCommand, state: SandboxState): SandboxEvent[] {
  const { sandboxId } = command.data;
  const at = command.metadata.at;
  if (command.type === 'CreateSandbox') return create(command, state);
  if (state.status === 'none') throw noSandbox(sandboxId);
  if (isDesktopCommand(command)) {
    if (state.status !== 'running') throw inState(state, 'use the desktop of');
    return decideDesktop(command, state.desktop ?? null, state.settings?.name ?? sandboxId);
  }
  switch (command.type) {
    case 'RecordSandboxStarted':
      if (state.status !== 'creating') return [];
      return [{ type: 'SandboxStarted', data: { sandboxId, at } }];
    case 'FailSandbox':
      if (state.status === 'deleted' || state.status === 'failed') return [];
      return [{ type: 'SandboxFailed', data: { sandboxId, reason: command.data.reason, at } }];
    case 'UpdateSandbox':
      if (state.status !== 'running' && state.status !== 'stopped') throw inState(state, 'update');
      return update(command, state);
    case 'StopSandbox':
      return stop(command, state);
    case 'ResumeSandbox':
      if (state.status === 'running') return [];
      if (state.status !== 'stopped') throw inState(state, 'resume');
      return [{ type: 'SandboxResumed', data: { sandboxId, at } }];
    case 'DestroySandbox':
      if (state.status === 'deleted') return [];
      return [{ type: 'SandboxDestroyed', data: { sandboxId, at } }];
    default:
      return assertNever(command);
  }
}

function evolve(state: SandboxState, event: SandboxEvent): SandboxState {
  // The desktop's own events leave the sandbox's updated_at alone (an input is no change of it).
  if (isDesktopEvent(event))
    return { ...state, desktop: evolveDesktop(state.desktop ?? null, event) };
  const at = event.data.at;
  const next = { ...state, updatedAt: at };
  switch (event.type) {
    case 'SandboxCreated': {
      const { at: _at, ...settings } = event.data;
      return { ...next, status: 'creating', settings, createdAt: at };
    }
    case 'SandboxStarted':
      return { ...next, status: 'running', spend: switchPhase(state.spend, at, 'running') };
    case 'SandboxFailed':
      return {
        ...next,
        status: 'failed',
        failure: event.data.reason,
        spend: switchPhase(state.spend, at, null),
      };
    case 'SandboxUpdated': {
      const { idleTimeoutSeconds, stopWhenAgentsFinish, metadata } = event.data;
      const settings = {
        ...(state.settings as SandboxSettings),
        idleTimeoutSeconds,
        stopWhenAgentsFinish,
        metadata,
      };
      return { ...next, settings };
    }
    case 'SandboxStopped':
      return {
        ...next,
        status: 'stopped',
        stoppedReason: event.data.reason,
        spend: switchPhase(state.spend, at, 'stopped'),
      };
    case 'SandboxResumed':
      return {
        ...next,
        status: 'running',
        stoppedReason: null,
        spend: switchPhase(state.spend, at, 'running'),
      };
    case 'SandboxDestroyed':
      return { ...next, status: 'deleted', spend: switchPhase(state.spend, at, null) };
    default:
      return assertNever(event);
  }
}

/**
 * A sandbox from create to destroy: creating → running ⇄ stopped → deleted (or failed when
 * its box could not start). Stopping a stopped one and resuming a running one succeed with
 * nothing new; the spend phases follow the events so cost_cents is a fold of the history.
 */
export const sandboxDecider: Decider<SandboxCommand, SandboxEvent, SandboxState> = {
  decide,
  evolve,
  initialState: initialSandboxState,
};
