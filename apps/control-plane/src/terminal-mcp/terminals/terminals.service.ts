import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import type { SshTerminalView } from '@sessionboxer/contracts';
import {
  DomainError,
  ErrorCode,
  keyTokensToText,
  SSH_SIGN_TIMEOUT_MS,
  type Actor,
  type SshTerminalCloseReason,
} from '@sessionboxer/domain';
import { IdGenerator } from '../../infrastructure/clock';
import { UiPresence } from '../../presence';
import { SettingsService } from '../../settings';
import { SshEndpoints } from '../endpoints/ssh-endpoints.service';
import { SshKeys } from '../keys/ssh-keys.service';
import { READ_LIMIT_DEFAULT } from './output-buffer';
import { openShell } from './ssh-connection';
import { TerminalClock } from './terminal-clock';
import type { TerminalCaller } from './terminal-caller';
import { TerminalRuntime } from './terminal-runtime';
import { TerminalsFeed } from './terminals-feed';
import { TERMINAL_SYSTEM, TerminalCommands } from './terminal-commands';

export type { TerminalCaller } from './terminal-caller';

/**
 * The SSH terminals of this control plane: requested by an MCP connection, allowed by a
 * person, then connected. A terminal is found only through its owner: another connection's id
 * answers exactly like a made-up one.
 */
@Injectable()
export class Terminals implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Terminals');
  private readonly live = new Map<string, TerminalRuntime>();
  private readonly timeouts = new Map<string, () => void>();

  constructor(
    private readonly commands: TerminalCommands,
    private readonly ids: IdGenerator,
    private readonly clock: TerminalClock,
    private readonly presence: UiPresence,
    private readonly endpoints: SshEndpoints,
    private readonly keys: SshKeys,
    private readonly feed: TerminalsFeed,
    private readonly settings: SettingsService,
  ) {}

  async create(caller: TerminalCaller, endpointId: string) {
    const e = this.endpoints.require(endpointId);
    const sessionId = this.ids.next();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + SSH_SIGN_TIMEOUT_MS).toISOString();
    const { name, host, port, user, hostKeyFingerprint } = e;
    const target = { endpointId, name, host, port, user, hostKeyFingerprint };
    const data = {
      terminalId: sessionId,
      owner: caller.owner,
      requester: caller.requester,
      target,
      approversConnected: this.presence.connected(),
      expiresAt,
      forSession: caller.forSession ?? null,
    };
    await this.commands.run(sessionId, 'RequestSshTerminal', data, caller.actor);
    // Global settings → notifications.mcp.debounceMs, as it is when the terminal is asked for.
    const { debounceMs } = (await this.settings.current()).notifications.mcp;
    const sink = (offset: number, bytes: Buffer) => this.commands.record(sessionId, offset, bytes);
    const rt = new TerminalRuntime(
      sessionId,
      caller.owner,
      endpointId,
      now,
      caller.listener,
      debounceMs,
      sink,
    );
    rt.onOutput = () => this.feed.output(rt);
    this.live.set(sessionId, rt);
    this.timeouts.set(
      sessionId,
      this.clock.after(SSH_SIGN_TIMEOUT_MS, () => void this.expire(sessionId)),
    );
    return { sessionId, endpointId, status: 'pending' as const };
  }

  list(owner: string) {
    return [...this.live.values()]
      .filter((t) => t.owner === owner)
      .map((t) => ({
        sessionId: t.sessionId,
        endpointId: t.endpointId,
        status: t.status,
        createdAt: t.createdAt,
      }));
  }

  send(owner: string, sessionId: string, keys: unknown): { sent: number } {
    const rt = this.owned(owner, sessionId);
    const text = keyTokensToText(keys); // all or nothing: a refused call sends no byte
    if (rt.status !== 'open' || rt.shell === null) {
      throw new DomainError(
        ErrorCode.InvalidState,
        `session ${sessionId} is ${rt.status}, not open: nothing was sent`,
      );
    }
    const bytes = Buffer.from(text, 'utf8');
    rt.shell.channel.write(bytes);
    return { sent: bytes.length };
  }

  read(owner: string, sessionId: string, afterOffset?: number, limit?: number) {
    return this.owned(owner, sessionId).read(afterOffset ?? 0, limit ?? READ_LIMIT_DEFAULT);
  }

  async close(owner: string, sessionId: string, reason: SshTerminalCloseReason = 'closed') {
    const rt = this.owned(owner, sessionId);
    await this.end(rt, reason);
    return { sessionId, status: rt.status };
  }

  /** Every terminal of an MCP connection that went away. */
  async closeOwner(owner: string, reason: SshTerminalCloseReason): Promise<void> {
    const mine = [...this.live.values()].filter((t) => t.owner === owner);
    await Promise.all(mine.map((t) => this.end(t, reason)));
    for (const t of mine) this.live.delete(t.sessionId);
  }

  /** A person's answer to the endpoint-auth card. */
  async answer(sessionId: string, allow: boolean, person: Actor): Promise<SshTerminalView> {
    await this.commands.run(
      sessionId,
      'AnswerSshTerminal',
      { terminalId: sessionId, allow },
      person,
    );
    this.timeouts.get(sessionId)?.();
    this.timeouts.delete(sessionId);
    const rt = this.live.get(sessionId);
    if (rt && !allow) this.forget(rt, 'closed');
    if (rt && allow) void this.connect(rt);
    return this.view(sessionId) as SshTerminalView;
  }

  views(): SshTerminalView[] {
    return this.commands.views();
  }

  view(sessionId: string): SshTerminalView | null {
    return this.commands.view(sessionId);
  }

  /** For the Terminals view: any terminal's output while this process holds it. */
  output(sessionId: string, afterOffset?: number, limit?: number) {
    const rt = this.live.get(sessionId);
    if (!rt)
      throw new DomainError(
        ErrorCode.NotFound,
        `terminal ${sessionId} is not live in this control plane`,
      );
    return rt.buffer.read(afterOffset ?? 0, limit ?? READ_LIMIT_DEFAULT);
  }

  /** Before the stores close, so each terminal's end is recorded. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.live.values()].map((t) => this.end(t, 'shutdown')));
    this.clock.stop();
  }

  private async connect(rt: TerminalRuntime): Promise<void> {
    try {
      const e = this.endpoints.require(rt.endpointId);
      const privateKey = e.keyId === null ? null : this.keys.privateKey(e.keyId);
      if (privateKey === null)
        throw new Error(`endpoint ${e.name} has no file key to sign in with`);
      const shell = await openShell({
        host: e.host,
        port: e.port,
        user: e.user,
        privateKey,
        expectedFingerprint: e.hostKeyFingerprint,
      });
      if (rt.ending) return shell.end(); // closed meanwhile
      rt.shell = shell;
      if (e.hostKeyFingerprint === null)
        await this.endpoints.pin(e.endpointId, shell.fingerprint, TERMINAL_SYSTEM);
      await this.commands.run(
        rt.sessionId,
        'RecordSshTerminalOpened',
        { terminalId: rt.sessionId, hostKeyFingerprint: shell.fingerprint },
        TERMINAL_SYSTEM,
      );
      shell.channel.on('data', (b: Buffer) => rt.output(b));
      shell.channel.stderr.on('data', (b: Buffer) => rt.output(b));
      shell.channel.once('close', () => void this.end(rt, 'remote-exit'));
      rt.setStatus('open');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn({ terminal: rt.sessionId, message }, 'terminal did not open');
      await this.commands
        .run(
          rt.sessionId,
          'FailSshTerminal',
          { terminalId: rt.sessionId, message },
          TERMINAL_SYSTEM,
        )
        .catch(() => undefined);
      this.forget(rt, 'errored');
    }
  }

  private async expire(sessionId: string): Promise<void> {
    this.timeouts.delete(sessionId);
    const rt = this.live.get(sessionId);
    const data = { terminalId: sessionId };
    const result = await this.commands.run(sessionId, 'ExpireSshTerminal', data, TERMINAL_SYSTEM);
    if (rt && result > 0) this.forget(rt, 'errored');
  }

  private async end(rt: TerminalRuntime, reason: SshTerminalCloseReason): Promise<void> {
    if (rt.ending) return;
    rt.ending = true;
    this.timeouts.get(rt.sessionId)?.();
    rt.shell?.end();
    await rt.flush().catch(() => undefined);
    const data = { terminalId: rt.sessionId, reason };
    try {
      await this.commands.run(rt.sessionId, 'CloseSshTerminal', data, TERMINAL_SYSTEM);
    } catch (e) {
      // The shell is gone either way; the log says the close could not be recorded.
      this.logger.warn({ terminal: rt.sessionId, error: String(e) }, 'terminal close not recorded');
    } finally {
      this.forget(rt, 'closed');
    }
  }

  /** Ended: tell the owner, drop the shell; the buffer stays readable until the owner goes. */
  private forget(rt: TerminalRuntime, status: 'closed' | 'errored'): void {
    rt.ending = true;
    this.timeouts.get(rt.sessionId)?.();
    this.timeouts.delete(rt.sessionId);
    rt.setStatus(status);
    rt.dispose();
  }

  private owned(owner: string, sessionId: string): TerminalRuntime {
    const rt = typeof sessionId === 'string' ? this.live.get(sessionId) : undefined;
    // Another connection's terminal and a made-up id get the very same answer.
    if (rt === undefined || rt.owner !== owner) {
      throw new DomainError(ErrorCode.NotFound, `session ${String(sessionId)} not found`);
    }
    return rt;
  }
}
