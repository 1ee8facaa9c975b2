import type { INestApplication, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { BoxWsAdapter } from './box-gateway';
import { BoxSockets } from './boxes';
import type { AppConfig } from './config';
import type { LogLevelName } from './operations-config';
import { ErrorFilter } from './errors/error.filter';
import { jsonBody } from './errors/json-body';
import { sandboxApiBody } from './sandboxes';
import { validationPipe } from './errors/validation';
import { serveWebApp } from './web/web-app';

export interface CreateAppOptions {
  /** Overrides SESSIONBOXER_LOG_LEVEL: false is silent, levels the least severe of them. */
  logger?: LogLevel[] | false;
  /** Where log lines go instead of stdout (a test's capture). */
  logStream?: NodeJS.WritableStream;
}

/** The pino level a Nest level list amounts to. */
function pinoLevel(levels: LogLevel[] | false): LogLevelName {
  if (levels === false || levels.length === 0) return 'silent';
  if (levels.includes('verbose') || levels.includes('debug')) return 'debug';
  if (levels.includes('log')) return 'info';
  return levels.includes('warn') ? 'warn' : levels.includes('error') ? 'error' : 'fatal';
}

/** Builds the control plane (used by main.ts and by the e2e tests, so both run the same app). */
export async function createApp(
  config: AppConfig,
  options: CreateAppOptions = {},
): Promise<INestApplication> {
  if (options.logger !== undefined) config.operations.logLevel = pinoLevel(options.logger);
  const module = AppModule.forRoot(config, options.logStream);
  const app = await NestFactory.create<NestExpressApplication>(module, {
    bufferLogs: true,
    bodyParser: false,
    abortOnError: false,
  });
  // Nest's own Logger calls (and those buffered until now) go through pino.
  app.useLogger(app.get(Logger));
  app.flushLogs();
  if (config.trustProxy !== null) app.set('trust proxy', config.trustProxy);
  app.use(['/mcp', '/v1'], sandboxApiBody());
  app.use(jsonBody());
  serveWebApp(app);
  app.useWebSocketAdapter(new BoxWsAdapter(app, app.get(BoxSockets)));
  app.useGlobalPipes(validationPipe());
  app.useGlobalFilters(new ErrorFilter());
  const doc = new DocumentBuilder()
    .setTitle('Sessionboxer admin API')
    .setDescription(
      'Sessions, their transcripts and sidebar, and the raw event history for auditors.',
    )
    .setVersion('0.1.0')
    .build();
  SwaggerModule.setup('api/docs', app, () => SwaggerModule.createDocument(app, doc), {
    jsonDocumentUrl: 'api/docs-json',
  });
  return app;
}

/** Listens, and makes the configured public URL the bound one when none was given. */
export async function listen(app: INestApplication, config: AppConfig): Promise<string> {
  await app.listen(config.port, config.host);
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  if (!process.env.SESSIONBOXER_PUBLIC_URL) config.publicUrl = url;
  return url;
}
