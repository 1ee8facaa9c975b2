import type { AddressInfo } from 'node:net';
import type * as http from 'node:http';
import type { DaemonConfig } from './config';
import { desktopServerEnv } from './desktop/desktop-config';
import { startEdgePipe, type RunningEdgePipe } from './edge/edge-pipe';
import { VirtualDisplay } from './desktop/display';
import { DesktopViews } from './desktop-view/desktop-views';
import { GatewayClient } from './gateway/gateway-client';
import { AckedOutbox } from './harness/acked-outbox';
import { harnessAdapters } from './harness/harnesses';
import { TurnRunner } from './harness/turn-runner';
import { createHttpServer } from './http/http-server';
import { errorMessage, type Log } from './log';
import { createServerFrameHandler } from './server-frames';
import { TerminalManager } from './terminals/terminal-manager';
import { DAEMON_VERSION } from './version';
import { McpJsonFile } from './workspace/mcp-json';
import { SessionJsonFile } from './workspace/session-json';

export interface RunningDaemon {
  /** http://host:port, as written into .mcp.json. */
  url: string;
  port: number;
  /** Kills the terminals and the display, drops the gateway connection, stops listening. */
  close(): Promise<void>;
}

function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function unique(turns: { conversationId: string; turn: number }[]) {
  return [...new Map(turns.map((t) => [`${t.conversationId}/${t.turn}`, t])).values()];
}

/** The daemon's parts, wired to each other but not started. */
function wire(config: DaemonConfig, log: Log) {
  const sessionFile = new SessionJsonFile(config.workspace, log);
  const mcpJson = new McpJsonFile(config.workspace, log);
  const gateway: GatewayClient = new GatewayClient({
    socketPath: config.gatewaySocket,
    path: config.gatewayPath,
    callWaitMs: config.callWaitMs,
    callTimeoutMs: config.callTimeoutMs,
    log,
    hello: () => ({
      daemonVersion: DAEMON_VERSION,
      terminals: terminals.running(),
      // A turn whose end is still unacknowledged is not lost: its output is about to be resent.
      turns: unique([...turns.running(), ...outputs.turns()]),
    }),
    onServerFrame: (event, data) => onServerFrame(event, data),
    onConnected: () => outputs.resend(),
  });
  const outputs = new AckedOutbox((event, frame) => gateway.send(event, frame), log);
  const terminals = new TerminalManager({
    cwd: config.workspace,
    log,
    events: {
      opened: (frame) => gateway.deliver('terminal.opened', frame),
      exited: (frame) => gateway.deliver('terminal.exited', frame),
      output: (frame) => gateway.deliver('terminal.output', frame),
    },
  });
  const turns = new TurnRunner({
    workspace: config.workspace,
    nodePath: config.nodePath,
    agentBin: config.agentBin,
    adapters: harnessAdapters,
    deliver: (_event, frame) => outputs.add(frame),
    log,
    mcpJsonWritten: () => mcpJson.settled(),
  });
  const display = config.desktop.enabled
    ? new VirtualDisplay({ display: config.desktop.display, screen: config.desktop.screen, log })
    : null;
  const desktopViews = new DesktopViews({
    // With the desktop off, a display someone else runs (DISPLAY) may still be there to watch.
    display: display ? display.display : process.env.DISPLAY,
    socketPath: config.desktopViewSocket,
    log,
  });
  const onServerFrame = createServerFrameHandler({
    sessionFile,
    mcpJson,
    terminals,
    turns,
    outputs,
    desktopViews,
    log,
    reply: (event, data) => gateway.reply(event, data),
  });
  return { sessionFile, mcpJson, gateway, terminals, display, turns, desktopViews };
}

/** The box's way out; a box whose edge cannot listen still works, with nothing outside. */
async function openEdge(config: DaemonConfig, log: Log): Promise<RunningEdgePipe | null> {
  const { host, edgePort: port, edgeSocket: socketPath } = config;
  try {
    const edge = await startEdgePipe({ host, port, socketPath, log });
    log.info(`edge on ${host}:${edge.port}, piped to ${socketPath}`);
    return edge;
  } catch (e) {
    log.error(`the edge cannot listen on ${host}:${port}: ${errorMessage(e)}`);
    return null;
  }
}

/** Starts the daemon: HTTP first, so that .mcp.json names its port, then the gateway. */
export async function startDaemon(config: DaemonConfig, log: Log): Promise<RunningDaemon> {
  const { sessionFile, mcpJson, gateway, terminals, display, turns, desktopViews } = wire(
    config,
    log,
  );
  // Concurrently: the ready line and the gateway never wait for Xvfb (the tools wait for it).
  display?.start();
  const server = createHttpServer(gateway, log);
  const port = await listen(server, config.port, config.host);
  const url = `http://${config.host}:${port}`;
  const edge = await openEdge(config, log);
  await mcpJson
    .write({
      nodePath: config.nodePath,
      commandRoot: config.mcpCommandRoot,
      daemonUrl: url,
      // With the desktop off, a display someone else runs (DISPLAY) may still be there to drive.
      display: display ? display.display : process.env.DISPLAY,
      desktopEnv: desktopServerEnv(config.desktop),
      guidePath: config.guidePath,
    })
    .catch(() => undefined); // logged by McpJsonFile
  gateway.start();

  const close = async (): Promise<void> => {
    // Terminals first, while their exit frames can still reach the control plane.
    turns.stopAll();
    desktopViews.closeAll();
    await Promise.all([terminals.killAll(), display?.stop()]);
    gateway.close();
    // Lets the calls just failed write their 503 before the connections are cut.
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([closeServer(server), edge?.close()]);
    await sessionFile.flushed();
  };
  return { url, port, close };
}
