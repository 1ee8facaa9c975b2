import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { Reactor } from '@sessionboxer/projections';
import { Reactors } from '../../infrastructure/reactors';
import { SandboxDesktop } from './sandbox-desktop.service';

/**
 * A destroyed sandbox's desktop, let go: its engine (and the runner it kept in the box) and
 * its AT-SPI helper. Their processes went with the box; what the control plane held for them
 * would otherwise stay until it restarts.
 */
@Injectable()
export class SandboxDesktopReleased implements Reactor, OnModuleInit {
  readonly name = 'sandbox_desktop_released';
  readonly handles = ['SandboxDestroyed'];

  constructor(
    private readonly reactors: Reactors,
    private readonly desktop: SandboxDesktop,
  ) {}

  onModuleInit(): void {
    this.reactors.register(this);
  }

  react(event: RecordedEvent): Promise<void> {
    const { sandboxId } = event.data as { sandboxId: string };
    this.desktop.release(sandboxId);
    return Promise.resolve();
  }
}
