import type { INestApplication, LoggerService, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppModule } from './app.module';
import { BoxWsAdapter } from './box-gateway';
import { BoxSockets } from './boxes';
import type { AppConfig } from './config';
import { ErrorFilter } from './errors/error.filter';
import { jsonBody } from './errors/json-body';
import { validationPipe } from './errors/validation';
import { serveWebApp } from './web/web-app';

export interface CreateAppOptions {
  logger?: LoggerService | LogLevel[] | false;
}

/** Builds the control plane (used by main.ts and by the e2e tests, so both run the same app). */
export async function createApp(
  config: AppConfig,
  options: CreateAppOptions = {},
): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    logger: options.logger ?? ['log', 'warn', 'error'],
    bodyParser: false,
    abortOnError: false,
  });
  if (config.trustProxy !== null) app.set('trust proxy', config.trustProxy);
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
