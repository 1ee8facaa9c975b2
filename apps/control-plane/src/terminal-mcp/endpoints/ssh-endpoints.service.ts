import { Inject, Injectable } from '@nestjs/common';
import type { SshEndpointView } from '@sessionboxer/contracts';
import {
  DomainError,
  ErrorCode,
  sshEndpointDecider,
  sshEndpointStream,
  type Actor,
  type SshEndpointCommand,
} from '@sessionboxer/domain';
import { sshEndpointQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import { CommandBus } from '../../infrastructure/command-bus';
import { IdGenerator } from '../../infrastructure/clock';
import { READ_MODELS } from '../../infrastructure/tokens';

/**
 * SSH endpoints: one installation's list, visible to every signed-in caller (one org), written
 * by people and by MCP connections whose grant has endpoint write access.
 */
@Injectable()
export class SshEndpoints {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly bus: CommandBus,
    private readonly ids: IdGenerator,
  ) {}

  list(): SshEndpointView[] {
    return sshEndpointQueries(this.readModels).list();
  }

  get(endpointId: string): SshEndpointView | null {
    return sshEndpointQueries(this.readModels).get(endpointId);
  }

  /** The endpoint, or a 404 that names it. */
  require(endpointId: string): SshEndpointView {
    const e = this.get(endpointId);
    if (e === null)
      throw new DomainError(ErrorCode.NotFound, `endpoint ${endpointId} does not exist`);
    return e;
  }

  async create(endpoint: unknown, actor: Actor): Promise<SshEndpointView> {
    const endpointId = this.ids.next();
    await this.run(endpointId, 'CreateSshEndpoint', { endpointId, endpoint }, actor);
    return this.require(endpointId);
  }

  async update(endpointId: string, endpoint: unknown, actor: Actor): Promise<SshEndpointView> {
    await this.run(endpointId, 'UpdateSshEndpoint', { endpointId, endpoint }, actor);
    return this.require(endpointId);
  }

  async delete(endpointId: string, actor: Actor): Promise<void> {
    await this.run(endpointId, 'DeleteSshEndpoint', { endpointId }, actor);
  }

  /** Pins what the first approved handshake saw (refused if another key is pinned). */
  async pin(endpointId: string, fingerprint: string, actor: Actor): Promise<void> {
    await this.run(endpointId, 'PinSshHostKey', { endpointId, fingerprint }, actor);
  }

  private async run(
    endpointId: string,
    type: SshEndpointCommand['type'],
    data: unknown,
    actor: Actor,
  ): Promise<void> {
    const command = { type, data, metadata: this.bus.metadata(actor) } as SshEndpointCommand;
    await this.bus.execute(sshEndpointDecider, sshEndpointStream(endpointId), command);
  }
}
