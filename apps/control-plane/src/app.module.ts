import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from './config';
import { EventsController } from './events/events.controller';
import { HealthController } from './health/health.controller';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { SessionsController } from './sessions/sessions.controller';
import { SessionsService } from './sessions/sessions.service';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [InfrastructureModule.forRoot(config)],
      controllers: [SessionsController, EventsController, HealthController],
      providers: [SessionsService],
    };
  }
}
