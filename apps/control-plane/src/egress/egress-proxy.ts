import * as http from 'node:http';
import * as net from 'node:net';
import type { Duplex } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import { normalHost } from '@sessionboxer/domain';
import { answer, answerSocket } from './edge-answers';
import type { EdgeCaller } from './edge-routes';
import { EDGE_BUFFER_BYTES, type EdgeProxy } from './edge-server';
import { EgressGuard, type EgressVerdict } from './egress-guard';
import { EgressPolicyService } from './egress-policy.service';
import { EgressRecorder } from './egress-recorder';
import { LookupFailed } from './egress-resolver';
import { forwardHeaders } from '../common/hop-headers';

const CONNECT_TIMEOUT_MS = 15_000;
/** A forwarded request whose upstream is silent this long (no headers, no bytes) is a 504. */
const IDLE_TIMEOUT_MS = 60_000;

interface Target {
  host: string;
  port: number;
}

/** `host:port` or `[v6]:port`; the host a DNS name or an address literal. */
export function parseAuthority(authority: string): Target | null {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/\s@]+):(\d{1,5})$/.exec(authority);
  if (!m) return null;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return null;
  const raw = m[1];
  if (raw.startsWith('['))
    return net.isIPv6(raw.slice(1, -1)) ? { host: raw.slice(1, -1), port } : null;
  if (net.isIPv4(raw)) return { host: raw, port };
  const host = normalHost(raw);
  return host ? { host, port } : null;
}

/**
 * The egress proxy: `CONNECT host:port` tunnels (the TLS inside is never opened) and
 * absolute-form plain HTTP, each decided by the allow list and the address checks, recorded,
 * and connected to the checked address itself.
 */
@Injectable()
export class EgressProxy implements EdgeProxy {
  private readonly logger = new Logger('Egress');
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

  constructor(
    private readonly policy: EgressPolicyService,
    private readonly guard: EgressGuard,
    private readonly recorder: EgressRecorder,
  ) {}

  tunnel(caller: EdgeCaller, authority: string, socket: Duplex, head: Buffer): void {
    const target = parseAuthority(authority);
    if (!target) {
      const shown = JSON.stringify(authority.slice(0, 200));
      return answerSocket(
        socket,
        400,
        `CONNECT takes host:port (a name or address and a port from 1 to 65535), got ${shown}`,
      );
    }
    socket.pause();
    this.decide(caller, target).then(
      (verdict) => {
        if (socket.destroyed) return;
        if (!verdict.allowed) return answerSocket(socket, 403, refusedLine(target, verdict.reason));
        this.connectTunnel(target, verdict, socket, head);
      },
      (e: unknown) => answerSocket(socket, failureStatus(e), failureLine(target, e)),
    );
  }

  forward(caller: EdgeCaller, req: http.IncomingMessage, res: http.ServerResponse, url: URL): void {
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const target = parseAuthority(`${host.includes(':') ? `[${host}]` : host}:${url.port || '80'}`);
    if (!target)
      return answer(
        res,
        400,
        `cannot proxy to ${JSON.stringify(url.host)}: not a host name or address`,
      );
    req.pause();
    this.decide(caller, target).then(
      (verdict) => {
        if (res.destroyed) return;
        if (!verdict.allowed) return answer(res, 403, refusedLine(target, verdict.reason));
        this.forwardTo(target, verdict, url, req, res);
      },
      (e: unknown) => answer(res, failureStatus(e), failureLine(target, e)),
    );
  }

  close(): void {
    this.agent.destroy();
  }

  private async decide(caller: EdgeCaller, target: Target): Promise<EgressVerdict> {
    const { sessionId } = caller;
    const allow = await this.policy.allowListFor(sessionId);
    const verdict = await this.guard.check(allow, target.host, target.port);
    const { host, port } = target;
    void this.recorder.record(
      verdict.allowed
        ? { sessionId, host, port, allowed: true, address: verdict.address }
        : { sessionId, host, port, allowed: false, code: verdict.code, reason: verdict.reason },
    );
    return verdict;
  }

  private connectTunnel(target: Target, verdict: Allowed, socket: Duplex, head: Buffer): void {
    const upstream = net.connect(
      withBuffer({ host: verdict.address, port: target.port, family: verdict.family }),
    );
    let connected = false;
    upstream.setTimeout(CONNECT_TIMEOUT_MS, () => {
      if (connected) return;
      upstream.destroy();
      answerSocket(
        socket,
        504,
        `${target.host}:${target.port} did not accept the connection within ${CONNECT_TIMEOUT_MS / 1000} s`,
      );
    });
    upstream.once('connect', () => {
      connected = true;
      upstream.setTimeout(0);
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      socket.pipe(upstream);
      upstream.pipe(socket);
      socket.resume();
    });
    upstream.on('error', (e: NodeJS.ErrnoException) => {
      if (connected) return socket.destroy();
      answerSocket(
        socket,
        502,
        `could not connect to ${target.host}:${target.port} (${verdict.address}): ${e.code ?? e.message}`,
      );
    });
    upstream.on('close', () => {
      if (connected && !upstream.readableEnded) socket.destroy();
    });
    socket.on('close', () => upstream.destroy());
  }

  private forwardTo(
    target: Target,
    verdict: Allowed,
    url: URL,
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): void {
    const upstream = http.request(
      withBuffer({
        host: verdict.address,
        port: target.port,
        family: verdict.family,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers: forwardHeaders(req.headers, url.host),
        agent: this.agent,
        timeout: IDLE_TIMEOUT_MS,
      }),
    );
    upstream.on('response', (reply) => {
      reply.on('error', () => res.destroy());
      try {
        res.writeHead(reply.statusCode ?? 502, reply.statusMessage, forwardHeaders(reply.headers));
      } catch (e) {
        // An answer Node will not write on (a bad status line or header) is the host's fault.
        reply.destroy();
        return answer(
          res,
          502,
          `${target.host}:${target.port} answered what is not HTTP: ${String(e)}`,
        );
      }
      reply.pipe(res);
    });
    upstream.on('timeout', () => {
      upstream.destroy();
      answer(
        res,
        504,
        `${target.host}:${target.port} did not answer within ${IDLE_TIMEOUT_MS / 1000} s`,
      );
    });
    upstream.on('error', (e: NodeJS.ErrnoException) => {
      if (res.headersSent) return res.destroy();
      answer(
        res,
        502,
        `could not reach ${target.host}:${target.port} (${verdict.address}): ${e.code ?? e.message}`,
      );
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
    req.resume();
  }
}

type Allowed = Extract<EgressVerdict, { allowed: true }>;

/** The socket's stream buffers, which Node takes from these options but does not type. */
function withBuffer<T extends object>(options: T): T {
  return { ...options, highWaterMark: EDGE_BUFFER_BYTES };
}

function refusedLine(target: Target, reason: string): string {
  const host = target.host.includes(':') ? `[${target.host}]` : target.host;
  return `blocked a connection to ${host}:${target.port}: ${reason}`;
}

function failureStatus(e: unknown): number {
  return e instanceof LookupFailed && e.timedOut ? 504 : 502;
}

function failureLine(target: Target, e: unknown): string {
  if (e instanceof LookupFailed)
    return `could not reach ${target.host}:${target.port}: ${e.message}`;
  return `could not decide on ${target.host}:${target.port}: the control plane failed`;
}
