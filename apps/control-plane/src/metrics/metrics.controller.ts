import { createHash, timingSafeEqual } from 'node:crypto';
import { Controller, Get, Header, Inject, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import type { Request } from 'express';
import { Registry } from 'prom-client';
import { AuthService, Public } from '../auth';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../infrastructure/tokens';
import { MetricsRegistry } from './metrics.registry';

/**
 * `GET /metrics` in Prometheus' text format, for a scraper holding SESSIONBOXER_METRICS_TOKEN
 * as its bearer token, or a signed-in person. Public to the guard: it checks either itself.
 */
@ApiTags('metrics')
@Public()
@Controller('metrics')
export class MetricsController {
  private readonly token: Buffer | null;

  constructor(
    private readonly metrics: MetricsRegistry,
    private readonly auth: AuthService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const token = config.operations.metricsToken;
    this.token = token === null ? null : digest(token);
  }

  @Get()
  @Header('content-type', Registry.PROMETHEUS_CONTENT_TYPE)
  @Header('cache-control', 'no-store')
  @ApiOperation({ summary: 'Prometheus metrics (bearer SESSIONBOXER_METRICS_TOKEN or a sign-in)' })
  async scrape(@Req() request: Request): Promise<string> {
    if (!(await this.mayRead(request))) {
      throw new DomainError(
        ErrorCode.Unauthenticated,
        this.token === null
          ? 'sign in first (Authorization: Bearer <sign-in token>), or set SESSIONBOXER_METRICS_TOKEN and send it as the bearer token'
          : 'send Authorization: Bearer <SESSIONBOXER_METRICS_TOKEN>, or sign in first',
      );
    }
    return this.metrics.registry.metrics();
  }

  private async mayRead(request: Request): Promise<boolean> {
    const header = request.headers.authorization;
    const bearer = typeof header === 'string' ? /^Bearer (\S+)$/.exec(header)?.[1] : undefined;
    if (this.token !== null && bearer !== undefined && timingSafeEqual(digest(bearer), this.token))
      return true;
    return (await this.auth.identify(request.headers)) !== null;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
