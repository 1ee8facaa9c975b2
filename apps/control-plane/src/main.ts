import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp, listen } from './app.factory';
import { BoxLifecycle } from './boxes';
import { ConfigError, loadConfig } from './config';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  const url = await listen(app, config);
  const logger = new Logger('Sessionboxer');
  logger.log(`control plane on ${url} (API docs: ${url}/api/docs)`);
  // Close the app on SIGTERM/SIGINT (pending appends flushed, stores closed), then exit 0.
  // A second signal while closing exits at once.
  let closing = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) process.exit(1);
    closing = true;
    logger.log(`${signal}: shutting down (boxes keep running; the next start adopts them)`);
    app.get(BoxLifecycle).keepBoxesOnShutdown = true; // only destroy ends a box
    app.close().then(
      () => process.exit(0),
      (e: unknown) => {
        logger.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

main().catch((e: unknown) => {
  if (e instanceof ConfigError) {
    console.error(`sessionboxer: ${e.message}`);
  } else {
    console.error(e);
  }
  process.exit(1);
});
