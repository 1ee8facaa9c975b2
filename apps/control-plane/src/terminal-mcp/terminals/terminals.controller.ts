import { Body, Controller, Delete, Get, Header, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type {
  SshEndpointView,
  SshKeyView,
  SshTerminalOutputPage,
  SshTerminalView,
} from '@sessionboxer/contracts';
import {
  DomainError,
  ErrorCode,
  sshTerminalStream,
  type Actor,
  type SshTerminalEvent,
} from '@sessionboxer/domain';
import type { EventStore } from '@sessionboxer/event-store';
import { EVENT_STORE } from '../../infrastructure/tokens';
import { asciicast } from './asciicast';
import { RequestActor } from '../../auth';
import { SshEndpoints } from '../endpoints/ssh-endpoints.service';
import { SshKeys } from '../keys/ssh-keys.service';
import { Terminals } from './terminals.service';

function offset(value: string | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new DomainError(ErrorCode.ValidationFailed, `${field} must be a whole number ≥ 0`, {
      field,
    });
  }
  return n;
}

/**
 * People's side of the terminals: the endpoint-auth cards and their answers, every SSH
 * terminal with its output for the Terminals view, and the endpoints and keys.
 */
@ApiTags('terminals')
@Controller('api/terminals')
export class TerminalsController {
  constructor(
    private readonly terminals: Terminals,
    private readonly endpoints: SshEndpoints,
    private readonly keys: SshKeys,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  @Get(':id/asciicast')
  @Header('content-type', 'application/x-asciicast')
  @ApiOperation({
    summary: "A terminal's whole recorded output as asciicast v2 (from the event log)",
  })
  async cast(@Param('id') id: string): Promise<string> {
    if (this.terminals.view(id) === null) {
      throw new DomainError(ErrorCode.NotFound, `terminal ${id} does not exist`);
    }
    const events = await this.store.readStream(sshTerminalStream(id));
    return asciicast(events as unknown as SshTerminalEvent[]);
  }

  @Get()
  @ApiOperation({ summary: 'Every SSH terminal, newest first (pending ones are approval cards)' })
  list(): SshTerminalView[] {
    return this.terminals.views();
  }

  @Post(':id/allow')
  @ApiOperation({ summary: 'Allow an endpoint-auth request: the SSH handshake starts' })
  allow(@Param('id') id: string, @RequestActor() actor: Actor): Promise<SshTerminalView> {
    return this.terminals.answer(id, true, actor);
  }

  @Post(':id/deny')
  @ApiOperation({ summary: 'Deny an endpoint-auth request' })
  deny(@Param('id') id: string, @RequestActor() actor: Actor): Promise<SshTerminalView> {
    return this.terminals.answer(id, false, actor);
  }

  @Get(':id/output')
  @ApiOperation({ summary: "A live terminal's output from a byte offset" })
  output(
    @Param('id') id: string,
    @Query('afterOffset') after?: string,
    @Query('limit') limit?: string,
  ): SshTerminalOutputPage {
    return this.terminals.output(
      id,
      offset(after, 'afterOffset'),
      offset(limit, 'limit') || undefined,
    );
  }

  @Get('endpoints/all')
  @ApiOperation({ summary: 'SSH endpoints' })
  listEndpoints(): SshEndpointView[] {
    return this.endpoints.list();
  }

  @Post('endpoints')
  @ApiOperation({
    summary: 'Create an SSH endpoint { name, host, port, user, keyId, hostKeyFingerprint }',
  })
  createEndpoint(@Body() body: unknown, @RequestActor() actor: Actor): Promise<SshEndpointView> {
    return this.endpoints.create(body, actor);
  }

  @Delete('endpoints/:endpointId')
  @ApiOperation({ summary: 'Delete an SSH endpoint' })
  async deleteEndpoint(
    @Param('endpointId') id: string,
    @RequestActor() actor: Actor,
  ): Promise<{ deleted: true }> {
    await this.endpoints.delete(id, actor);
    return { deleted: true };
  }

  @Get('keys/all')
  @ApiOperation({ summary: "SSH keys' metadata (never the private key)" })
  listKeys(): SshKeyView[] {
    return this.keys.list();
  }

  @Post('keys')
  @ApiOperation({
    summary: 'Add a file key { name, privateKey }: sealed at rest, only metadata answered',
  })
  addKey(
    @Body() body: { name?: unknown; privateKey?: unknown },
    @RequestActor() actor: Actor,
  ): Promise<SshKeyView> {
    return this.keys.addFileKey(body?.name, body?.privateKey, actor);
  }
}
