import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DomainError, ErrorCode, isDomainError } from '@sessionboxer/domain';
import { Public } from '../auth';
import { OwnerRpc } from './owner-rpc';

/** Where the other instances ask this one to act on the boxes it owns (OwnerRpc). */
@ApiExcludeController()
@Controller('internal/rpc')
export class InternalRpcController {
  constructor(private readonly rpc: OwnerRpc) {}

  @Public()
  @Post()
  @HttpCode(200)
  async call(
    @Headers('authorization') authorization: string | undefined,
    @Body() body: { op?: unknown; args?: unknown },
  ): Promise<{ result: unknown }> {
    if (!this.rpc.trusted(authorization)) {
      throw new DomainError(ErrorCode.Unauthenticated, 'only the other instances may call this');
    }
    try {
      return { result: (await this.rpc.dispatch(body?.op, body?.args)) ?? null };
    } catch (e) {
      if (isDomainError(e)) throw e;
      throw new DomainError(ErrorCode.Unavailable, (e as Error).message);
    }
  }
}
