import { deterministicUuid } from '@sessionboxer/event-store';
import {
  sessionDecider,
  sessionStream,
  type Actor,
  type SessionCommand,
} from '@sessionboxer/domain';
import type {
  PrItem,
  PrSummary,
  QueuedPromptSummary,
  ScheduleCreateArgs,
  SessionboxerPort,
  SnapshotResult,
  TerminalSummary,
  UiOpenResult,
  UiPane,
  VerifyResult,
  WhoAmI,
} from '@sessionboxer/mcp-adapters';
import { CallerOtherSessions } from '../other-sessions/caller-other-sessions';
import { CallerSchedules } from '../schedules/caller-schedules';
import type { SessionPortDeps } from './session-port.factory';

/**
 * SessionboxerPort for ONE call of ONE session's agent. The session comes from the box's
 * socket; every command id is derived from the call id, so a call resent after a reconnect
 * (or a control-plane restart) takes effect once.
 */
export class ControlPlaneSessionPort implements SessionboxerPort {
  private readonly actor: Actor;
  private step = 0;

  constructor(
    private readonly deps: SessionPortDeps,
    private readonly sessionId: string,
    private readonly callId: string,
  ) {
    this.actor = { kind: 'agent', sessionId };
  }

  whoami(): Promise<WhoAmI> {
    return this.deps.whoami.build(this.sessionId);
  }

  /** The public settings with this session's policy in force, not the global default. */
  async settings(): Promise<Record<string, unknown>> {
    const [{ settings }, policy] = await Promise.all([
      this.deps.settings.view(),
      this.deps.policy.sessionboxerFor(this.sessionId),
    ]);
    return { ...settings, sessionboxer: { ...settings.sessionboxer, ...policy } };
  }

  async setTitle(title: string): Promise<{ id: string; title: string }> {
    await this.session({
      type: 'SetSessionTitle',
      data: { sessionId: this.sessionId, title },
      metadata: this.meta(),
    });
    const who = await this.whoami();
    return { id: who.id, title: who.title };
  }

  async notify(text: string): Promise<{ ok: true }> {
    const notificationId = this.id('notification');
    await this.session({
      type: 'Notify',
      data: { sessionId: this.sessionId, notificationId, text, source: 'agent' },
      metadata: this.meta(),
    });
    this.deps.presence.broadcast(this.sessionId, 'notification', {
      sessionId: this.sessionId,
      notificationId,
      text,
    });
    return { ok: true };
  }

  snapshot(): Promise<SnapshotResult> {
    return this.deps.snapshots.take(this.sessionId, this.actor, `call/${this.callId}`);
  }

  attachPr(pr: { owner: string; repo: string; number: number }): Promise<PrSummary> {
    return this.deps.prs.attach(this.sessionId, pr, this.actor, `call/${this.callId}`);
  }

  listPrs(): Promise<PrSummary[]> {
    return Promise.resolve(this.deps.prs.list(this.sessionId));
  }

  prItems(prId: string): Promise<{ pr: PrSummary; items: PrItem[] }> {
    return Promise.resolve(this.deps.prs.get(this.sessionId, prId));
  }

  markAddressed(prId: string, itemIds: string[]): Promise<{ pr: PrSummary; items: PrItem[] }> {
    return this.deps.prs.markAddressed(
      this.sessionId,
      prId,
      itemIds,
      this.actor,
      `call/${this.callId}/${this.step++}`,
    );
  }

  async terminals(): Promise<TerminalSummary[]> {
    return (await this.whoami()).terminals;
  }

  readTerminal(
    terminalId: string,
    lines: number,
  ): Promise<{ id: string; text: string; exitCode: number | null }> {
    return this.deps.channel.request(this.sessionId, 'terminal.read', { terminalId, lines });
  }

  async openUi(pane: UiPane, terminal: { command: string } | null): Promise<UiOpenResult> {
    const terminalId = terminal ? this.id('terminal') : null;
    if (terminal && terminalId) {
      // The agent's command runs in its own box, in a shell, as it would type it in a Terminal.
      await this.deps.terminals.open(this.sessionId, terminalId, [
        '/bin/bash',
        '-lc',
        terminal.command,
      ]);
    }
    const shown = this.deps.presence.showTo(this.sessionId, 'pane', {
      sessionId: this.sessionId,
      pane,
      terminalId,
    });
    await this.session({
      type: 'RequestPane',
      data: {
        sessionId: this.sessionId,
        pane,
        shown,
        terminalId,
        command: terminal?.command ?? null,
      },
      metadata: this.meta(),
    });
    return { pane, terminalId, shown };
  }

  async queueAdd(text: string): Promise<{ id: string; position: number }> {
    // Queued even when the agent is idle: the agent asked for a NEXT turn, not this one.
    const receipt = await this.deps.agent.prompt(this.sessionId, {
      text,
      from: this.actor,
      key: `call/${this.callId}`,
      queue: true,
    });
    return { id: receipt.promptId, position: receipt.position };
  }

  queueList(): Promise<{ prompts: QueuedPromptSummary[] }> {
    const prompts = this.deps.agent.queue(this.sessionId);
    return Promise.resolve({
      prompts: prompts.map(({ id, text, position, queuedAt, from }) => ({
        id,
        text,
        position,
        queuedAt,
        from,
      })),
    });
  }

  async verify(brief: string, cases: string[] | null): Promise<VerifyResult> {
    const run = await this.deps.verifications.open({
      sessionId: this.sessionId,
      runId: this.id('verification'),
      brief,
      cases,
      actor: this.actor,
      key: `call/${this.callId}`,
    });
    const summary = run.cases.map(({ index, title, status }) => ({ index, title, status }));
    return { id: run.id, status: run.status, cases: summary };
  }

  listSessions() {
    return this.others().listSessions();
  }

  getSession(session: string) {
    return this.others().getSession(session);
  }

  createSession(args: { first_prompt: string; title?: string; provider?: string }) {
    return this.others().createSession(args);
  }

  messageSession(session: string, text: string, when: 'now' | 'queue') {
    return this.others().messageSession(session, text, when);
  }

  waitSession(session: string, seconds: number) {
    return this.others().waitSession(session, seconds);
  }

  stopSession(session: string) {
    return this.others().stopSession(session);
  }

  forkSession() {
    return this.others().forkSession();
  }

  waitApproval(id: string, seconds: number) {
    return this.others().waitApproval(id, seconds);
  }

  createSchedule(args: ScheduleCreateArgs) {
    return new CallerSchedules(this.deps.schedules, this.sessionId, this.callId).createSchedule(
      args,
    );
  }

  listSchedules() {
    return new CallerSchedules(this.deps.schedules, this.sessionId, this.callId).listSchedules();
  }

  private others(): CallerOtherSessions {
    return new CallerOtherSessions(this.deps.others, this.sessionId, this.callId);
  }

  private session(command: SessionCommand) {
    return this.deps.bus.execute(sessionDecider, sessionStream(this.sessionId), command);
  }

  /** Metadata for the call's next command: its id derives from the call id and the step. */
  private meta() {
    return this.deps.bus.metadata(this.actor, `call/${this.callId}/${this.step++}`);
  }

  /** An id for something this call creates, the same if the call is resent. */
  private id(kind: string): string {
    return deterministicUuid(`${kind}/${this.sessionId}/${this.callId}`);
  }
}
