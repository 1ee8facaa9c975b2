import * as net from 'node:net';
import { Client, type ClientChannel } from 'ssh2';
import { fingerprintOf } from '../keys/ssh-keys.service';

export interface SshTarget {
  host: string;
  port: number;
  user: string;
  privateKey: string;
  /** The pinned fingerprint; null: accept the first one seen (it is then pinned). */
  expectedFingerprint: string | null;
}

export interface OpenShell {
  channel: ClientChannel;
  fingerprint: string;
  /** Ends the SSH connection (and with it sshd's side). */
  end(): void;
}

/** Why a handshake failed, in words an agent and a person can act on. */
export class HostKeyChanged extends Error {}

const KEEPALIVE_MS = 15_000;

/**
 * Connects with the host key verified (a changed key refuses the connection before any
 * credential is offered), TCP_NODELAY (keystrokes are tiny packets, Nagle would hold them),
 * keepalives, and opens a shell on a PTY.
 */
export function openShell(target: SshTarget, size = { cols: 120, rows: 40 }): Promise<OpenShell> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    let seen: string | null = null;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      client.end();
      reject(error);
    };
    const sock = net.connect(target.port, target.host);
    sock.setNoDelay(true);
    sock.once('error', fail);
    client.once('error', (e) => {
      const expected = target.expectedFingerprint;
      if (seen !== null && expected !== null && seen !== expected) {
        fail(
          new HostKeyChanged(
            `host key changed: ${target.host}:${target.port} presented ${seen}, but ${expected} is pinned; refused before signing in (if the change is expected, update the endpoint's hostKeyFingerprint)`,
          ),
        );
      } else
        fail(new Error(`ssh to ${target.user}@${target.host}:${target.port} failed: ${e.message}`));
    });
    client.once('close', () =>
      fail(new Error(`ssh to ${target.host}:${target.port} closed during the handshake`)),
    );
    client.once('ready', () => {
      client.shell({ term: 'xterm-256color', ...size }, (err, channel) => {
        if (err) return fail(new Error(`the shell did not open: ${err.message}`));
        settled = true;
        resolve({ channel, fingerprint: seen as string, end: () => client.end() });
      });
    });
    sock.once('connect', () => {
      client.connect({
        sock,
        username: target.user,
        privateKey: target.privateKey,
        keepaliveInterval: KEEPALIVE_MS,
        keepaliveCountMax: 3,
        readyTimeout: 20_000,
        hostVerifier: (key: Buffer) => {
          seen = fingerprintOf(key);
          return target.expectedFingerprint === null || seen === target.expectedFingerprint;
        },
      });
    });
  });
}
