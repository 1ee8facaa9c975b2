import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalBoxDriver } from '../../src/boxes/driver';
import { EgressResolver, type EgressLookup } from '../../src/egress';
import { BOX_DRIVER } from '../../src/infrastructure/tokens';
import { waitFor } from '../box-kit';
import type { RunningApp } from '../harness';

/** The loopback address the operator setting excepts, where the test's "outside" hosts live. */
export const OUTSIDE = '127.0.0.2';

/** Runs argv inside the box (with the box's environment: its HTTP_PROXY); stdout and code. */
export function inBox(
  api: RunningApp,
  sessionId: string,
  argv: string[],
): Promise<{ out: string; err: string; code: number | null }> {
  const child = api.app.get<LocalBoxDriver>(BOX_DRIVER).exec(sessionId, argv);
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ out, err, code })));
}

/** A test double of DNS: the names the test gives, everything else NXDOMAIN. */
export function useTestResolver(api: RunningApp, names: Record<string, string[]>): void {
  const lookup: EgressLookup = (host) => {
    const found = names[host];
    if (!found) {
      return Promise.reject(
        Object.assign(new Error(`no such name ${host}`), { code: 'ENOTFOUND' }),
      );
    }
    return Promise.resolve(
      found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
  api.app.get(EgressResolver).use(lookup);
}

/** A plain HTTP server on OUTSIDE, standing in for an allowed host on the internet. */
export async function outsideServer(
  handler: http.RequestListener,
): Promise<{ port: number; server: http.Server; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, OUTSIDE, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface EgressEventView {
  type: string;
  data: { host: string; port: number; code?: string; reason?: string; address?: string };
}

/** The session's egress events, once at least `count` of them match. */
export function egressEvents(
  api: RunningApp,
  sessionId: string,
  match: (e: EgressEventView) => boolean,
  count = 1,
): Promise<EgressEventView[]> {
  return waitFor(`${count} matching egress events of ${sessionId}`, async () => {
    const reply = await api.request('GET', `/api/streams/egress-${sessionId}/events?limit=1000`);
    const events = ((reply.body?.events ?? []) as EgressEventView[]).filter(match);
    return events.length >= count ? events : null;
  });
}
