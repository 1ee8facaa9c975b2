import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AppConfig } from '../config';
import { SHARED_STATE, type SharedState } from '../infrastructure/shared-state';
import { APP_CONFIG } from '../infrastructure/tokens';

/** An instance is alive while it renews its key; missing this long, it is taken for dead. */
export const LEASE_MS = 15_000;
export const HEARTBEAT_MS = 2_000;
const SECRET_KEY = 'cluster-secret';

/** What an instance says of itself under `instance:<name>`. */
export interface InstanceRecord {
  /** Where the other instances reach it; null until its server is bound. */
  url: string | null;
  host: string;
  pid: number;
  /** This process's nonce: a restarted instance of the same name is another holder. */
  nonce: string;
}

/**
 * The control-plane instances sharing one event store. Each holds `instance:<name>` in the
 * shared state while it lives (renewed every 2 s, gone 15 s after it stops renewing), with the
 * URL the others forward to. Two live processes of one name are refused at start; a holder of
 * this host whose process is gone (kill -9) is taken over at once.
 */
@Injectable()
export class InstanceRegistry implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Cluster');
  readonly name: string;
  private readonly nonce = randomBytes(12).toString('hex');
  private timer: NodeJS.Timeout | null = null;
  private secretValue: string | null = null;
  private lost = false;
  private registering: Promise<void> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_STATE) private readonly state: SharedState,
    private readonly http: HttpAdapterHost,
  ) {
    this.name = config.operations.instance;
  }

  onModuleInit(): Promise<void> {
    return this.register();
  }

  /** Takes this instance's name (once; the box driver asks before it adopts any box). */
  register(): Promise<void> {
    this.registering ??= this.take();
    return this.registering;
  }

  private async take(): Promise<void> {
    const key = instanceKey(this.name);
    if (!(await this.state.claim(key, this.record(), LEASE_MS))) {
      const held = parse(await this.state.get(key));
      if (held && !deadHere(held)) {
        throw new Error(
          `another control plane runs as instance "${this.name}" (pid ${held.pid} on ${held.host}); give each instance its own SESSIONBOXER_INSTANCE`,
        );
      }
      await this.state.set(key, this.record(), LEASE_MS);
    }
    await this.state.claim(SECRET_KEY, randomBytes(32).toString('base64url'), 0x7fffffff);
    this.secretValue = await this.state.get(SECRET_KEY);
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const key = instanceKey(this.name);
    const held = parse(await this.state.get(key).catch(() => null));
    if (held?.nonce === this.nonce) await this.state.delete(key).catch(() => undefined);
  }

  /** The bearer the instances use among themselves (in the shared state, never logged). */
  get secret(): string {
    if (this.secretValue === null) throw new Error('the instance registry has not started');
    return this.secretValue;
  }

  /** The live instance of that name, or null when it is gone. */
  async find(name: string): Promise<InstanceRecord | null> {
    return parse(await this.state.get(instanceKey(name)));
  }

  /** Names of the live instances, this one included. */
  async live(): Promise<string[]> {
    const all = await this.state.scan('instance:');
    return [...all.keys()].map((k) => k.slice('instance:'.length)).sort();
  }

  private async beat(): Promise<void> {
    const key = instanceKey(this.name);
    const value = this.record();
    // The URL is known once the server is bound: the record is rewritten with it.
    // Gone (the shared state lost it) is taken again; held by another process is lost. The
    // shared state unreachable for a beat is tried again at the next (null), never thrown.
    const renewed = await this.state
      .get(key)
      .then(async (held) => {
        if (held !== null && parse(held)?.nonce !== this.nonce) return false;
        await this.state.set(key, value, LEASE_MS);
        return true;
      })
      .catch(() => null);
    if (renewed === false && !this.lost) {
      this.lost = true;
      this.logger.error(`instance "${this.name}" lost its registration to another process`);
    }
  }

  private record(): string {
    const record: InstanceRecord = {
      url: this.url(),
      host: os.hostname(),
      pid: process.pid,
      nonce: this.nonce,
    };
    return JSON.stringify(record);
  }

  private url(): string | null {
    if (this.config.operations.internalUrl) return this.config.operations.internalUrl;
    const server = this.http.httpAdapter?.getHttpServer() as
      { address(): { port: number } | string | null } | undefined;
    const address = server?.address?.();
    if (!address || typeof address === 'string') return null;
    const host = ['0.0.0.0', '::'].includes(this.config.host) ? '127.0.0.1' : this.config.host;
    return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  }
}

export const instanceKey = (name: string): string => `instance:${name}`;

function parse(raw: string | null): InstanceRecord | null {
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as InstanceRecord;
  } catch {
    return null;
  }
}

/** A holder on this host whose process no longer exists (a kill -9, a crash). */
function deadHere(record: InstanceRecord): boolean {
  if (record.host !== os.hostname()) return false;
  try {
    process.kill(record.pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
