import type { Server } from 'node:net';
import * as os from 'node:os';
import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { allowedBy, type EgressRefusal } from '@sessionboxer/domain';
import type { AppConfig } from '../config';
import { APP_CONFIG } from '../infrastructure/tokens';
import { type AddressClass, classifyAddress, isLocalAddress } from './address-check';
import { EgressResolver } from './egress-resolver';

export type EgressVerdict =
  | { allowed: true; address: string; family: 4 | 6; entry: string }
  | { allowed: false; code: EgressRefusal; reason: string };

const INTERFACES_TTL_MS = 10_000;

/**
 * Decides one connection out of a box: the allow list first (a name not on it is never even
 * resolved), then every address the name resolves to is checked, and the proxy connects to
 * the checked address itself (never resolving again, so a rebinding DNS gains nothing).
 */
@Injectable()
export class EgressGuard {
  private readonly exceptions: ReadonlySet<string>;
  private interfaces: { at: number; addresses: Set<string> } | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly resolver: EgressResolver,
    private readonly http: HttpAdapterHost,
  ) {
    const canonical = config.egressAllowAddresses.map((a) => classifyAddress(a)?.address ?? a);
    this.exceptions = new Set(canonical);
  }

  async check(allow: readonly string[], host: string, port: number): Promise<EgressVerdict> {
    const target = `${host}:${port}`;
    const literal = classifyAddress(host);
    if (literal) {
      const refused = this.refusal(literal, port);
      if (refused)
        return { allowed: false, code: refused.code, reason: `${target} is ${refused.text}` };
      const entry = allowedBy(allow, literal.address, port);
      if (!entry) return notAllowed(target);
      return { allowed: true, address: literal.address, family: literal.family, entry };
    }
    const entry = allowedBy(allow, host, port);
    if (!entry) return notAllowed(target);
    const found = await this.resolver.lookup(host);
    const classes = found.map((f) => classifyAddress(f.address));
    for (const [i, c] of classes.entries()) {
      if (!c) return refusedAs(host, found[i].address, 'not an address');
      const refused = this.refusal(c, port);
      if (refused) {
        return {
          allowed: false,
          code: refused.code,
          reason: `${host} resolves to ${c.address}, ${refused.text}`,
        };
      }
    }
    const first = classes[0] as AddressClass;
    return { allowed: true, address: first.address, family: first.family, entry };
  }

  /** Why no box may reach this address on this port, whatever the list says; null: it may. */
  private refusal(c: AddressClass, port: number): { code: EgressRefusal; text: string } | null {
    if (this.ownPorts().has(port) && isLocalAddress(c, this.localAddresses())) {
      return { code: 'control_plane', text: "the control plane's own address and port" };
    }
    if (c.refusal !== null && !this.exceptions.has(c.address)) {
      return { code: 'refused_address', text: c.refusal };
    }
    return null;
  }

  private ownPorts(): Set<number> {
    const ports = new Set<number>();
    if (this.config.port !== 0) ports.add(this.config.port);
    const server = this.http.httpAdapter?.getHttpServer() as Server | undefined;
    const address = server?.address();
    if (address && typeof address === 'object') ports.add(address.port);
    return ports;
  }

  private localAddresses(): Set<string> {
    const now = Date.now();
    if (this.interfaces && now - this.interfaces.at < INTERFACES_TTL_MS) {
      return this.interfaces.addresses;
    }
    const addresses = new Set<string>();
    for (const list of Object.values(os.networkInterfaces())) {
      for (const i of list ?? []) addresses.add(classifyAddress(i.address)?.address ?? i.address);
    }
    const host = classifyAddress(this.config.host);
    if (host) addresses.add(host.address);
    this.interfaces = { at: now, addresses };
    return addresses;
  }
}

export function notAllowed(target: string): EgressVerdict {
  return { allowed: false, code: 'not_allowed', reason: `${target} is not on the allow list` };
}

function refusedAs(host: string, address: string, why: string): EgressVerdict {
  return {
    allowed: false,
    code: 'refused_address',
    reason: `${host} resolves to ${address}, ${why}`,
  };
}
