/**
 * One recorder call in a process of its own, as a short-lived MCP server makes it:
 * `node -r @swc-node/register recorder-cli.ts '<RecorderOptions JSON>' start|status|annotate <text>`.
 * Prints the result as JSON and exits, leaving whatever it started running.
 */
import { createRecorder, type RecorderOptions } from '../recorder';

async function main(): Promise<void> {
  const [options, command, text] = process.argv.slice(2);
  const recorder = createRecorder(JSON.parse(options) as RecorderOptions);
  const result =
    command === 'start'
      ? await recorder.start()
      : command === 'annotate'
        ? await recorder.annotate(text)
        : await recorder.status();
  process.stdout.write(JSON.stringify(result));
}

main().catch((e: unknown) => {
  process.stderr.write(String(e));
  process.exit(1);
});
