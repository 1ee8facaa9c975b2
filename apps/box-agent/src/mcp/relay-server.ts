/**
 * The relay of a box (compiled to dist/apps/box-agent/src/mcp/relay-server.js, listed in the
 * workspace's .mcp.json for each of the MCP registry's outside servers): `relay-server.js
 * <server>` speaks MCP over stdio to the harness and hands every message, unread, to the
 * box's daemon, which sends it over the box's channel to that server on the control plane. The
 * session is the caller there, known from the channel, never from a message. The answer holds
 * the server's responses and the notifications that waited since the last message.
 * stdout carries MCP and nothing else: anything that logs goes to stderr.
 */
import { randomUUID } from 'node:crypto';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BOX_PATHS, RELAY_KEEPALIVE_MS } from '@sessionboxer/mcp-adapters/bridge/protocol';
import { postToDaemon, type DaemonClientOptions } from './daemon-client';

console.log = console.error;
console.info = console.error;
console.debug = console.error;

/** A request's JSON-RPC error when the relay itself failed (the daemon or the channel). */
const RELAY_FAILED = -32603;

function messagesOf(result: unknown): JSONRPCMessage[] {
  const messages = (result as { messages?: unknown } | null)?.messages;
  return Array.isArray(messages) ? (messages as JSONRPCMessage[]) : [];
}

async function main(): Promise<void> {
  const server = process.argv[2];
  if (!server) throw new Error('usage: relay-server.js <server>');
  const daemon: DaemonClientOptions = {
    baseUrl: process.env.SESSIONBOXER_DAEMON_URL?.trim() || BOX_PATHS.daemonUrl,
    endpoint: 'relay',
  };
  const connection = randomUUID();
  const stdio = new StdioServerTransport();
  let closing = false;
  // One message at a time, in order: `initialized` never overtakes `initialize`'s answer, and
  // the terminal tools answer at once (none waits for output), so nothing waits long.
  let chain: Promise<void> = Promise.resolve();

  const relay = async (message?: JSONRPCMessage): Promise<void> => {
    await postToDaemon(daemon, server, { connection, message }).then(async (answer) => {
      if (answer.ok) {
        for (const m of messagesOf(answer.result)) await stdio.send(m);
      } else if (message && 'id' in message && 'method' in message) {
        const error = { code: RELAY_FAILED, message: `${server}: ${answer.error.message}` };
        await stdio.send({ jsonrpc: '2.0', id: message.id, error });
      } else {
        process.stderr.write(`${server} relay: ${answer.error.message}\n`);
      }
    });
  };
  const enqueue = (message?: JSONRPCMessage) => {
    chain = chain
      .then(() => relay(message))
      .catch((e: unknown) => {
        process.stderr.write(`${server} relay: ${String(e)}\n`);
      });
  };
  stdio.onmessage = (message) => enqueue(message);
  // Keeps the connection's lease while this process runs, and brings its notifications.
  const keepalive = setInterval(() => enqueue(), RELAY_KEEPALIVE_MS);
  const close = () => {
    if (closing) return;
    closing = true;
    clearInterval(keepalive);
    // Ends the connection on the control plane now (its terminals close with it).
    void chain
      .then(() =>
        postToDaemon({ ...daemon, timeoutMs: 5_000 }, server, { connection, close: true }),
      )
      .then(() => process.exit(0));
  };
  stdio.onclose = close;
  process.stdin.once('end', close);
  process.once('SIGTERM', close);
  await stdio.start();
}

main().catch((e: unknown) => {
  process.stderr.write(`relay failed to start: ${String(e)}\n`);
  process.exit(1);
});
