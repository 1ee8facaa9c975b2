import { Module, type DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { AppConfig } from '../config';
import { CredentialsService, SettingsModule } from '../settings';
import { logOptions, prettyStream } from './log-options';

/**
 * Structured logs: pino through nestjs-pino, Nest's own Logger included (createApp's
 * bufferLogs and useLogger). JSON lines unless the configuration asks for pretty text;
 * `stream` (the tests' capture) replaces stdout.
 */
@Module({})
export class LoggingModule {
  static forRoot(config: AppConfig, stream?: NodeJS.WritableStream): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          imports: [SettingsModule],
          inject: [CredentialsService],
          useFactory: (credentials: CredentialsService) => {
            const options = logOptions(config.operations, (line) => credentials.mask(line));
            const out = stream ?? process.stdout;
            const destination = (
              config.operations.logFormat === 'pretty' ? prettyStream(out) : out
            ) as DestinationStream;
            // Silent (the tests): no request middleware at all, since it would write nothing.
            const silent = config.operations.logLevel === 'silent';
            return { pinoHttp: [options, destination], ...(silent ? { forRoutes: [] } : {}) };
          },
        }),
      ],
    };
  }
}
