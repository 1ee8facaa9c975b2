import { ConfigError, loadConfig } from './config';
import { startDaemon } from './daemon';
import { errorMessage, stderrLog as log } from './log';

/**
 * The daemon inside a box: `node dist/apps/box-agent/src/main.js`. Prints one line,
 * `sessionboxer-daemon ready on http://127.0.0.1:<port>`, once it listens; SIGTERM kills its
 * terminals and exits 0.
 */
async function main(): Promise<void> {
  // The launcher may stop reading our output; a closed pipe must not take the daemon down.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  const config = loadConfig();
  const daemon = await startDaemon(config, log);
  process.stdout.write(`sessionboxer-daemon ready on ${daemon.url}\n`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info(`${signal}: stopping`);
    daemon.close().then(
      () => process.exit(0),
      (e: unknown) => {
        log.error(`while stopping: ${errorMessage(e)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((e: unknown) => {
  if (e instanceof ConfigError) log.error(e.message);
  else if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    log.error(`cannot listen: ${errorMessage(e)} (is another daemon running in this box?)`);
  } else log.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exit(1);
});
