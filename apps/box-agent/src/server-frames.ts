import type { z } from 'zod';
import { ErrorCode } from '@sessionboxer/domain/kernel/errors';
import {
  describeIssues,
  requestId,
  type TerminalAnswer,
  sessionPush,
  terminalInputPush,
  terminalListRequest,
  terminalOpenPush,
  terminalReadRequest,
  terminalResizePush,
} from './gateway/frames';
import {
  agentAck,
  frameError,
  mcpRegistryPush,
  turnInterruptPush,
  turnStartPush,
  type FrameError,
} from '@sessionboxer/mcp-adapters/bridge/protocol';
import type { AckedOutbox } from './harness/acked-outbox';
import { handleDesktopViewFrame } from './desktop-view/desktop-view-frames';
import type { DesktopViews } from './desktop-view/desktop-views';
import type { TurnRunner } from './harness/turn-runner';
import type { Log } from './log';
import type { TerminalManager } from './terminals/terminal-manager';
import type { McpJsonFile } from './workspace/mcp-json';
import type { SessionJsonFile } from './workspace/session-json';

export interface ServerFrameDeps {
  sessionFile: SessionJsonFile;
  mcpJson: McpJsonFile;
  terminals: TerminalManager;
  turns: TurnRunner;
  outputs: AckedOutbox;
  desktopViews: DesktopViews;
  /** Sends `terminal.answer` on the connection that asked. */
  reply(event: 'terminal.answer', data: TerminalAnswer): void;
  log: Log;
}

export type { TerminalAnswer };

/** Handles the control plane's pushes and requests (everything but call results). */
export function createServerFrameHandler(deps: ServerFrameDeps) {
  return (event: string, data: unknown): void => {
    switch (event) {
      case 'session':
        return push(deps, event, sessionPush, data, (s) => deps.sessionFile.push(s));
      case 'mcp.registry':
        return push(deps, event, mcpRegistryPush, data, (r) => {
          deps.mcpJson.setRegistry(r.servers).catch(() => undefined); // logged by McpJsonFile
        });
      case 'terminal.open':
        return push(deps, event, terminalOpenPush, data, (f) =>
          deps.terminals.open(f.terminalId, f.command),
        );
      case 'terminal.input':
        return push(deps, event, terminalInputPush, data, (f) =>
          deps.terminals.write(f.terminalId, f.data),
        );
      case 'terminal.resize':
        return push(deps, event, terminalResizePush, data, (f) =>
          deps.terminals.resize(f.terminalId, f.cols, f.rows),
        );
      case 'turn.start':
        return push(deps, event, turnStartPush, data, (t) => deps.turns.start(t));
      case 'turn.interrupt':
        return push(deps, event, turnInterruptPush, data, (t) =>
          deps.turns.interrupt(t.conversationId, t.turn),
        );
      case 'agent.ack':
        return push(deps, event, agentAck, data, (a) => deps.outputs.ack(a));
      case 'desktop.view':
      case 'desktop.view.close':
        return handleDesktopViewFrame(deps, event, data);
      case 'error':
        return push(deps, event, frameError, data, (e) => refused(deps, e));
      case 'terminal.list':
        return answer(deps, event, terminalListRequest, data, () => ({
          terminals: deps.terminals.list(),
        }));
      case 'terminal.read':
        return answer(deps, event, terminalReadRequest, data, (r) => {
          const read = deps.terminals.read(r.terminalId, r.lines);
          if (!read) throw new NotFound(`no terminal ${r.terminalId} in this box`);
          return read;
        });
      default:
        deps.log.warn(`ignored an unknown frame from the gateway: ${event}`);
    }
  };
}

class NotFound extends Error {}

/** The control plane did not take a frame of ours; an agent.output it refused is dropped. */
function refused(deps: ServerFrameDeps, e: FrameError): void {
  deps.log.warn(`the control plane refused ${e.frame ?? 'a frame'}: ${e.message}`);
  const key = agentAck.safeParse(e.ref);
  // Refused for good: kept, it would be resent (and refused) on every new connection.
  if (e.frame === 'agent.output' && key.success) deps.outputs.ack(key.data);
}

function push<T>(
  deps: ServerFrameDeps,
  event: string,
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
  data: unknown,
  apply: (value: T) => void,
): void {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    deps.log.warn(`ignored a malformed ${event} frame: ${describeIssues(parsed.error)}`);
    return;
  }
  apply(parsed.data);
}

function answer<T extends { requestId: string }>(
  deps: ServerFrameDeps,
  event: string,
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
  data: unknown,
  compute: (request: T) => unknown,
): void {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const id = requestId.safeParse(data);
    const message = `malformed ${event} request: ${describeIssues(parsed.error)}`;
    deps.log.warn(message);
    // Without a requestId nobody could match an answer, so there is none.
    if (id.success) fail(deps, id.data.requestId, ErrorCode.ValidationFailed, message);
    return;
  }
  try {
    const result = compute(parsed.data);
    deps.reply('terminal.answer', { requestId: parsed.data.requestId, ok: true, result });
  } catch (e) {
    const code = e instanceof NotFound ? ErrorCode.NotFound : 'INTERNAL';
    fail(deps, parsed.data.requestId, code, e instanceof Error ? e.message : String(e));
  }
}

function fail(deps: ServerFrameDeps, requestId: string, code: string, message: string): void {
  deps.reply('terminal.answer', { requestId, ok: false, error: { code, message } });
}
