import { assertNever, DomainError, ErrorCode, type Decider } from '../kernel';
import type { BoxCommand, ProvisionBox } from './box.commands';
import type { BoxEvent } from './box.events';
import { initialBoxState, type BoxState, type BoxStatus, type ExistingBox } from './box.state';
import {
  validAdopted,
  validBoxPath,
  validFailureReason,
  validIsolation,
  validPid,
  validSessionId,
} from './box.validation';

const CATEGORY = 'box';

/** The box's stream, `box-<sessionId>`: one box per session, in `category-id` form. */
export function boxStream(sessionId: string): string {
  return `${CATEGORY}-${validSessionId(sessionId)}`;
}

type LiveStatus = Exclude<BoxStatus, 'destroyed'>;
/** `record` the command's event, change `nothing`, or refuse with this message. */
type Outcome = 'record' | 'nothing' | { refuse: string };

const FAILED = { refuse: 'the box failed; provision it again or destroy it' };
const LOST = { refuse: 'the box lost its processes; resume starts it again' };

/**
 * What each command does in each state of a box that exists and is not destroyed. The box's
 * commands mostly record what the driver or the daemon's socket just did, so a repeat of the
 * current state changes nothing instead of failing the caller.
 */
const TRANSITIONS: Record<
  Exclude<BoxCommand['type'], 'ProvisionBox'>,
  Record<LiveStatus, Outcome>
> = {
  MarkBoxReady: {
    provisioning: 'record',
    ready: 'nothing',
    disconnected: 'record',
    frozen: { refuse: 'a frozen box cannot connect; thaw it first' },
    failed: FAILED,
    lost: LOST,
  },
  // A frozen or failed box losing its socket is expected and says nothing new.
  MarkBoxDisconnected: {
    provisioning: 'nothing',
    ready: 'record',
    disconnected: 'nothing',
    frozen: 'nothing',
    failed: 'nothing',
    lost: 'nothing',
  },
  FreezeBox: {
    provisioning: 'record',
    ready: 'record',
    disconnected: 'record',
    frozen: 'nothing',
    failed: FAILED,
    lost: LOST,
  },
  ThawBox: {
    provisioning: 'nothing',
    ready: 'nothing',
    disconnected: 'nothing',
    frozen: 'record',
    failed: FAILED,
    lost: LOST,
  },
  // The first failure's reason stands until the box is provisioned again.
  FailBox: {
    provisioning: 'record',
    ready: 'record',
    disconnected: 'record',
    frozen: 'record',
    failed: 'nothing',
    lost: 'record',
  },
  DestroyBox: {
    provisioning: 'record',
    ready: 'record',
    disconnected: 'record',
    frozen: 'record',
    failed: 'record',
    lost: 'record',
  },
  // Adoption records what a starting control plane found: alive processes are a fact in any
  // state (each start finds them anew), lost ones once.
  AdoptBox: {
    provisioning: 'record',
    ready: 'record',
    disconnected: 'record',
    frozen: 'record',
    failed: 'record',
    lost: 'record',
  },
  LoseBoxProcesses: {
    provisioning: 'record',
    ready: 'record',
    disconnected: 'record',
    frozen: 'record',
    failed: 'record',
    lost: 'nothing',
  },
};

function existing(state: BoxState, sessionId: string): ExistingBox {
  if (state.status === 'absent') {
    throw new DomainError(
      ErrorCode.NotFound,
      `session ${sessionId} has no box: it was never provisioned`,
      { sessionId },
    );
  }
  return state;
}

function notDestroyed(box: ExistingBox, commandType: BoxCommand['type']): LiveStatus {
  if (box.status === 'destroyed') {
    throw new DomainError(
      ErrorCode.InvalidState,
      `the box was destroyed (session ${box.sessionId}); ${commandType} cannot apply to it`,
      { sessionId: box.sessionId, status: box.status },
    );
  }
  return box.status;
}

/** A box that exists is replaced: its process is gone (a restart, a failure) and a new one runs. */
function provision(command: ProvisionBox, state: BoxState): BoxEvent[] {
  const { data, metadata } = command;
  const sessionId = validSessionId(data.sessionId);
  if (state.status !== 'absent') notDestroyed(state, command.type);
  const event = {
    sessionId,
    workspacePath: validBoxPath(data.workspacePath, 'workspacePath'),
    mcpJsonPath: validBoxPath(data.mcpJsonPath, 'mcpJsonPath'),
    isolation: validIsolation(data.isolation),
    at: metadata.at,
  };
  return [{ type: 'BoxProvisioned', data: event }];
}

function eventFor(command: Exclude<BoxCommand, ProvisionBox>, sessionId: string): BoxEvent {
  const data = { sessionId, at: command.metadata.at };
  switch (command.type) {
    case 'MarkBoxReady':
      return { type: 'BoxReady', data };
    case 'MarkBoxDisconnected':
      return { type: 'BoxDisconnected', data };
    case 'FreezeBox':
      return { type: 'BoxFrozen', data };
    case 'ThawBox':
      return { type: 'BoxThawed', data };
    case 'DestroyBox':
      return { type: 'BoxDestroyed', data };
    case 'FailBox':
      return {
        type: 'BoxFailed',
        data: { ...data, reason: validFailureReason(command.data.reason) },
      };
    case 'AdoptBox': {
      const processes = validAdopted(command.data.processes);
      return { type: 'BoxAdopted', data: { ...data, processes, pid: validPid(command.data.pid) } };
    }
    case 'LoseBoxProcesses':
      return {
        type: 'BoxProcessesLost',
        data: { ...data, reason: validFailureReason(command.data.reason) },
      };
    default:
      return assertNever(command);
  }
}

function decide(command: BoxCommand, state: BoxState): BoxEvent[] {
  if (command.type === 'ProvisionBox') return provision(command, state);
  const box = existing(state, validSessionId(command.data.sessionId));
  const status = notDestroyed(box, command.type);
  const event = eventFor(command, box.sessionId);
  const outcome = TRANSITIONS[command.type][status];
  if (outcome === 'nothing') return [];
  if (outcome === 'record') return [event];
  throw new DomainError(ErrorCode.InvalidState, `${outcome.refuse} (it is ${status})`, {
    sessionId: box.sessionId,
    status,
  });
}

function evolve(state: BoxState, event: BoxEvent): BoxState {
  if (event.type === 'BoxProvisioned') {
    const { sessionId, workspacePath, mcpJsonPath, isolation } = event.data;
    return {
      status: 'provisioning',
      sessionId,
      workspacePath,
      mcpJsonPath,
      isolation,
      failure: null,
    };
  }
  if (state.status === 'absent') return state;
  switch (event.type) {
    case 'BoxReady':
      return { ...state, status: 'ready' };
    case 'BoxDisconnected':
    case 'BoxThawed':
      return { ...state, status: 'disconnected' };
    case 'BoxFrozen':
      return { ...state, status: 'frozen' };
    case 'BoxDestroyed':
      return { ...state, status: 'destroyed' };
    case 'BoxFailed':
      return { ...state, status: 'failed', failure: event.data.reason };
    // Running, it counts as disconnected until its daemon reconnects (BoxReady).
    case 'BoxAdopted':
      return {
        ...state,
        status: event.data.processes === 'frozen' ? 'frozen' : 'disconnected',
        failure: null,
      };
    case 'BoxProcessesLost':
      return { ...state, status: 'lost', failure: null };
    default:
      return assertNever(event);
  }
}

export const boxDecider: Decider<BoxCommand, BoxEvent, BoxState> = {
  decide,
  evolve,
  initialState: initialBoxState,
};
