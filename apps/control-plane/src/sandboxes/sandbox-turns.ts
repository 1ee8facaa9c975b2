import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Actor, HarnessOutput, TurnStarted } from '@sessionboxer/domain';
import { ConversationsService } from '../agent';
import type { BoxDriver } from '../boxes';
import type { EventStore } from '@sessionboxer/event-store';
import type { ConversationDoc, SqliteReadModelStore } from '@sessionboxer/projections';
import { sandboxQueries, type SandboxDoc } from '@sessionboxer/projections/sandboxes.projection';
import { BOX_DRIVER, EVENT_STORE, READ_MODELS } from '../infrastructure/tokens';
import { writeInBox } from './sandbox-exec';
import { SandboxBoxes } from './sandbox-boxes';
import { SandboxEdge } from './sandbox-edge';
import { ensureForwarder } from './sandbox-forwarder';
import { AGENT_HOME, SandboxHarness } from './sandbox-harness';
import { SandboxSecrets } from './sandbox-secrets';
import { SandboxUse } from './sandbox-use';

type ConversationChange = Awaited<ReturnType<ConversationsService['execute']>>;

const SYSTEM: Actor = { kind: 'system', id: 'sandbox-turns' };
const STDERR_KEPT = 16 * 1024;

interface Run {
  turn: number;
  child: ChildProcess | null;
}

/**
 * Runs a sandbox's agent turns in its box: each started turn's CLI (Claude Code, OpenCode, or
 * scripted where enabled) as root in /root, its stdout read line by line by the harness
 * adapter, each output recorded in the conversation with the sandbox's secrets masked; when a
 * turn ends, the conversation's next queued prompt starts. A running turn is use of the sandbox.
 */
@Injectable()
export class SandboxTurns implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('SandboxTurns');
  private readonly runs = new Map<string, Run>();
  private readonly harness: SandboxHarness;
  /** The history's head when this process started: a turn started up to it ran elsewhere. */
  private bootHead: number | null = null;
  /** Shutting down: the turns' CLIs are killed, and the next process fails their turns. */
  private closing = false;

  constructor(
    @Inject(BOX_DRIVER) private readonly driver: BoxDriver,
    private readonly conversations: ConversationsService,
    private readonly boxes: SandboxBoxes,
    private readonly edge: SandboxEdge,
    private readonly secrets: SandboxSecrets,
    private readonly use: SandboxUse,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {
    this.harness = new SandboxHarness(driver.isolation === 'bubblewrap');
  }

  get harnesses(): SandboxHarness {
    return this.harness;
  }

  /** Whether this process runs the conversation's turn now. */
  running(conversationId: string): boolean {
    return this.runs.has(conversationId);
  }

  /** After a command on a sandbox's conversation: runs the turn it started, if any. */
  started(sandbox: SandboxDoc, change: ConversationChange): void {
    if (change.started) this.launch(sandbox, change.started);
  }

  /** Stops the turns running in these conversations (their sandbox is being destroyed). */
  stop(conversationIds: readonly string[]): void {
    for (const id of conversationIds) this.runs.get(id)?.child?.kill('SIGKILL');
  }

  async onApplicationBootstrap(): Promise<void> {
    this.bootHead = await this.store.headPosition();
  }

  /**
   * A turn the history shows running that no process here runs and that started before this
   * process did (a restart took its CLI, whose pipes were the old process's): it fails, and the
   * conversation's queue goes on.
   */
  async recover(sandboxId: string, doc: ConversationDoc): Promise<void> {
    const started = doc.running?.position ?? Infinity;
    if (doc.currentTurn === null || this.runs.has(doc.id) || started > (this.bootHead ?? -1))
      return;
    await this.fail(
      doc.id,
      doc.currentTurn,
      'agent_lost',
      'Sessionboxer restarted while the turn ran, and its agent with it; send the prompt again',
    );
    await this.next(sandboxId, doc.id);
  }

  onApplicationShutdown(): void {
    this.closing = true;
    for (const run of this.runs.values()) run.child?.kill('SIGKILL');
  }

  private launch(sandbox: SandboxDoc, started: TurnStarted['data']): void {
    const { conversationId, turn } = started;
    const sandboxId = sandbox.id;
    const run: Run = { turn, child: null };
    this.runs.set(conversationId, run);
    const done = this.use.begin(sandboxId);
    void this.execute(sandbox, started, run)
      .catch(async (e: unknown) => {
        const message = e instanceof Error ? e.message : String(e);
        this.logger.warn(`turn ${turn} of ${conversationId}: ${message}`);
        if (this.closing) return;
        await this.fail(conversationId, turn, 'agent_failed', message).catch((f: unknown) =>
          this.logger.warn(`failing turn ${turn} of ${conversationId}: ${String(f)}`),
        );
      })
      .finally(() => {
        done();
        if (this.runs.get(conversationId) === run) this.runs.delete(conversationId);
        void this.next(sandboxId, conversationId);
      });
  }

  private async execute(sandbox: SandboxDoc, started: TurnStarted['data'], run: Run) {
    const sandboxId = sandbox.id;
    const s = sandbox.settings!;
    const doc = this.conversations.conversation(started.conversationId);
    if (!doc) return;
    const executable = this.harness.executable(doc.harness);
    if (executable === null) {
      const message = `${doc.harness} is not installed in this sandbox`;
      return this.fail(started.conversationId, started.turn, 'agent_unavailable', message);
    }
    await this.boxes.ensureRunning(sandboxId);
    await this.edge.ensure(sandboxId, this.boxes.runDir(sandboxId));
    const port = await ensureForwarder(this.driver, sandboxId, this.boxes.runDir(sandboxId));
    const secretEnv = await this.secrets.env(sandboxId, s.orgId, s.environment, s.secrets);
    const env = { ...secretEnv, ...(port === null ? {} : this.harness.providerEnv(port)) };
    const turn = {
      turn: started.turn,
      harness: doc.harness,
      prompt: started.text,
      briefing: null,
      model: started.model,
      conversationId: started.conversationId,
      harnessSessionId: doc.harnessSessionId,
      env,
    };
    const launch = this.harness.launch(turn, executable);
    for (const [file, content] of Object.entries(launch.files)) {
      await writeInBox(this.driver, sandboxId, file, Buffer.from(content, 'utf8'));
    }
    const base = { PATH: this.harness.path(), HOME: AGENT_HOME, LANG: 'C.UTF-8', TERM: 'dumb' };
    const child = this.driver.exec(sandboxId, launch.plan.argv, {
      env: { ...base, ...launch.env },
      cwd: AGENT_HOME,
    });
    run.child = child;
    await this.stream(sandboxId, started, child, launch.parser, launch.plan.stdin);
  }

  /** Reads the CLI's stdout to its end, recording each line's outputs in order. */
  private async stream(
    sandboxId: string,
    started: TurnStarted['data'],
    child: ChildProcess,
    parser: { line(t: string): HarnessOutput[]; end(e: Exit): HarnessOutput[] },
    stdin: string | null,
  ): Promise<void> {
    let index = 0;
    let chain = Promise.resolve();
    const record = (outputs: HarnessOutput[]) => {
      if (outputs.length === 0 || this.closing) return;
      const fromIndex = index;
      index += outputs.length;
      const masked = this.secrets.mask(sandboxId, outputs);
      chain = chain.then(() => this.record(started, fromIndex, masked));
    };
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-STDERR_KEPT)));
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(stdin ?? undefined);
    const lines = createInterface({ input: child.stdout!, crlfDelay: Infinity });
    lines.on('line', (line) => record(parser.line(line)));
    const exit = await new Promise<Exit>((resolve) => {
      child.once('error', (e) => resolve({ code: null, signal: null, stderr: e.message }));
      child.once('close', (code, signal) => resolve({ code, signal, stderr }));
    });
    record(parser.end(exit));
    await chain;
  }

  private async record(started: TurnStarted['data'], fromIndex: number, outputs: HarnessOutput[]) {
    const { conversationId, turn } = started;
    await this.conversations
      .execute(conversationId, {
        type: 'RecordHarnessOutput',
        data: { conversationId, turn, fromIndex, outputs },
        metadata: this.conversations.metadata(
          SYSTEM,
          `output/${conversationId}/${turn}/${fromIndex}`,
        ),
      })
      .catch((e: unknown) => this.logger.warn(`recording turn ${turn}: ${String(e)}`));
  }

  private async fail(conversationId: string, turn: number, code: string, message: string) {
    await this.conversations.execute(conversationId, {
      type: 'FailTurn',
      data: { conversationId, turn, code, message },
      metadata: this.conversations.metadata(SYSTEM, `fail/${conversationId}/${turn}`),
    });
  }

  /** A turn ended (or the sandbox resumed): the next queued prompt starts, if it runs. */
  async next(sandboxId: string, conversationId: string): Promise<void> {
    if (this.closing) return;
    const sandbox = sandboxQueries(this.readModels).get(sandboxId);
    const doc = this.conversations.conversation(conversationId);
    if (sandbox?.status !== 'running' || !doc || doc.currentTurn !== null || doc.queued === 0)
      return;
    try {
      const change = await this.conversations.execute(conversationId, {
        type: 'StartNextTurn',
        data: { conversationId, briefing: null },
        metadata: this.conversations.metadata(SYSTEM),
      });
      this.started(sandbox, change);
    } catch (e) {
      this.logger.warn(`next turn of ${conversationId}: ${String(e)}`);
    }
  }
}

type Exit = { code: number | null; signal: string | null; stderr: string };
