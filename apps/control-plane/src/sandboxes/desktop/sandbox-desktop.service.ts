import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode } from '@sessionboxer/domain/kernel';
import {
  badArgument,
  DESKTOP_ACTIONS,
  desktopFor,
  noDesktop,
  refusal,
  sandboxDecider,
  sandboxStream,
  type SandboxCommand,
  type SandboxDesktopState,
} from '@sessionboxer/domain/sandbox';
import type { SandboxDoc } from '@sessionboxer/projections/sandboxes.projection';
import { DesktopEngine } from '../../../../box-agent/src/desktop/engine';
import type { KeyIdentity } from '../../api-keys';
import type { BoxDriver } from '../../boxes';
import type { AppConfig } from '../../config';
import { CommandBus } from '../../infrastructure/command-bus';
import { APP_CONFIG } from '../../infrastructure/tokens';
import { SandboxBoxes } from '../sandbox-boxes';
import { SandboxUse } from '../sandbox-use';
import { actorOf, Sandboxes } from '../sandboxes.service';
import { closeAtspi } from './atspi';
import { boxPrograms } from './box-programs';
import { desktopProcesses, startDesktop, stopDesktop } from './desktop-launch';
import { desktopView, parseResolution, writeDisplayFile, type DesktopView } from './desktop-view';

/** In a bubblewrap box the display is the box's own (its /tmp, its network). */
const DISPLAY = ':1';
/** Between typed keys: fast, yet each press and release reaches Chromium as its own event. */
const TYPE_DELAY_MS = 6;
const NO_DISPLAY = /open display|not up within/i;

/** A desktop call's context: the sandbox, its desktop as recorded, and the engine driving it. */
export interface LiveDesktop {
  doc: SandboxDoc;
  name: string;
  desktop: SandboxDesktopState;
  engine: DesktopEngine;
}

/**
 * A sandbox's desktop (docs/SANDBOXES.md, Desktop): Xvfb and Chromium in its box, driven by
 * the session desktop's engine (the checked xdotool, xwd and the PNG encoder), whose X
 * programs run in the box through the driver's exec. Every change an event of the sandbox.
 */
@Injectable()
export class SandboxDesktop {
  private readonly engines = new Map<string, { engine: DesktopEngine; close(): void }>();

  constructor(
    private readonly sandboxes: Sandboxes,
    private readonly boxes: SandboxBoxes,
    private readonly bus: CommandBus,
    private readonly use: SandboxUse,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get driver(): BoxDriver {
    return this.boxes.driverPort;
  }

  async desktop(
    caller: KeyIdentity,
    args: { sandbox: string; action?: 'start' | 'stop' | 'status'; resolution?: string },
  ): Promise<DesktopView> {
    const action = args.action ?? 'start';
    if (action !== 'start' && args.resolution !== undefined) {
      throw badArgument('resolution', `resolution is for start, not ${action}`);
    }
    const size = parseResolution(args.resolution);
    const doc = await this.live(caller, args.sandbox);
    const done = this.use.begin(doc.id);
    try {
      const alive = await this.alive(caller, doc);
      const current = alive.xvfb ? doc.desktop! : null;
      if (action === 'status')
        return current ? this.view(doc.id, current, alive.chromium) : { running: false };
      if (action === 'stop') {
        await this.stopAll(doc.id);
        await this.record(caller, doc.id, {
          type: 'StopSandboxDesktop',
          data: { sandboxId: doc.id, reason: 'requested' },
        });
        return { running: false };
      }
      if (
        current &&
        args.resolution !== undefined &&
        `${size.width}x${size.height}` !== `${current.width}x${current.height}`
      ) {
        throw badArgument(
          'resolution',
          `the desktop runs at ${current.width}x${current.height}: stop it first to start it at ${args.resolution}`,
        );
      }
      const screen = current ? { width: current.width, height: current.height } : size;
      await this.start(doc.id, screen);
      await this.record(caller, doc.id, {
        type: 'StartSandboxDesktop',
        data: { sandboxId: doc.id, display: DISPLAY, ...screen, actions: [...DESKTOP_ACTIONS] },
      });
      const desktop = this.sandboxes.resolve(caller, doc.id).desktop!;
      this.engines.set(doc.id, this.engine(doc.id, desktop));
      return this.view(doc.id, desktop, true);
    } finally {
      done();
    }
  }

  /**
   * The running desktop for `action` (no_desktop, desktop_outdated), and `work` on its
   * engine: a display found gone (the box was started again) stops the desktop as lost.
   */
  async with<T>(
    caller: KeyIdentity,
    ref: string,
    action: string,
    work: (live: LiveDesktop) => Promise<T>,
  ): Promise<T> {
    const doc = await this.live(caller, ref);
    const name = doc.settings?.name ?? doc.id;
    const desktop = desktopFor(doc.desktop, name, action);
    const done = this.use.begin(doc.id);
    try {
      let entry = this.engines.get(doc.id);
      if (entry === undefined) {
        // First use in this instance: its processes may have gone with a restarted box.
        if (!(await this.alive(caller, doc)).xvfb) throw noDesktop(name);
        entry = this.engine(doc.id, desktop);
        this.engines.set(doc.id, entry);
      }
      const { engine } = entry;
      try {
        return await work({ doc, name, desktop, engine });
      } catch (e) {
        if (!(e instanceof Error) || !NO_DISPLAY.test(e.message)) throw e;
        if (!(await this.alive(caller, doc)).xvfb) throw noDesktop(name);
        throw e;
      }
    } finally {
      done();
    }
  }

  /** Records a command of the sandbox's desktop as the caller. */
  async record(caller: KeyIdentity, sandboxId: string, c: Pick<SandboxCommand, 'type' | 'data'>) {
    const command = { ...c, metadata: this.bus.metadata(actorOf(caller)) } as SandboxCommand;
    await this.bus.execute(sandboxDecider, sandboxStream(sandboxId), command);
  }

  /** A running sandbox of the caller's (its box started again if it was lost). */
  private async live(caller: KeyIdentity, ref: string): Promise<SandboxDoc> {
    const doc = this.sandboxes.running(caller, ref);
    if (this.boxes.driverPort.isolation !== 'bubblewrap') {
      throw refusal(
        'unavailable',
        ErrorCode.Unavailable,
        'the desktop needs bubblewrap boxes (SESSIONBOXER_BOX_ISOLATION)',
      );
    }
    await this.boxes.ensureRunning(doc.id);
    return doc;
  }

  /** Which processes run; a desktop recorded as running whose Xvfb is gone is stopped as lost. */
  private async alive(caller: KeyIdentity, doc: SandboxDoc) {
    if (!doc.desktop?.running) return { xvfb: false, chromium: false };
    const alive = await desktopProcesses(this.boxes.driverPort, doc.id);
    if (!alive.xvfb) {
      this.drop(doc.id);
      await this.record(caller, doc.id, {
        type: 'StopSandboxDesktop',
        data: { sandboxId: doc.id, reason: 'lost' },
      });
    }
    return alive;
  }

  private async start(sandboxId: string, screen: { width: number; height: number }) {
    try {
      await startDesktop(this.boxes.driverPort, sandboxId, DISPLAY, screen);
    } catch (e) {
      await this.stopAll(sandboxId);
      throw refusal(
        'unavailable',
        ErrorCode.Unavailable,
        `the desktop did not start: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    writeDisplayFile(this.boxes.runDir(sandboxId), DISPLAY);
  }

  private async stopAll(sandboxId: string): Promise<void> {
    this.drop(sandboxId);
    writeDisplayFile(this.boxes.runDir(sandboxId), null);
    await stopDesktop(this.boxes.driverPort, sandboxId);
  }

  /** The sandbox is gone (desktop-released.ts): what this instance held for its desktop. */
  release(sandboxId: string): void {
    this.drop(sandboxId);
    closeAtspi(this.boxes.driverPort, sandboxId);
  }

  /** Whether this instance holds an engine for the sandbox's desktop (for its tests). */
  holds(sandboxId: string): boolean {
    return this.engines.has(sandboxId);
  }

  private drop(sandboxId: string): void {
    const entry = this.engines.get(sandboxId);
    void entry?.engine.close().finally(() => entry.close());
    this.engines.delete(sandboxId);
  }

  private engine(sandboxId: string, desktop: SandboxDesktopState) {
    const box = boxPrograms(this.boxes.driverPort, sandboxId);
    const engine = new DesktopEngine({
      display: desktop.display,
      screen: { width: desktop.width, height: desktop.height },
      glide: false,
      typeDelayMs: TYPE_DELAY_MS,
      programs: box.programs,
    });
    return { engine, close: () => box.close() };
  }

  private view(sandboxId: string, desktop: SandboxDesktopState, browser: boolean): DesktopView {
    // The watch page (sandboxes/watch/, docs/SANDBOXES.md "Live view (watch)").
    return desktopView(desktop, browser, `${this.config.publicUrl}/sandboxes/${sandboxId}/watch`);
  }
}
