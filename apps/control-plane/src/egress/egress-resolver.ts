import * as dns from 'node:dns';
import { Injectable } from '@nestjs/common';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** The resolver port: every address a name has (the proxy checks each of them). */
export type EgressLookup = (host: string) => Promise<ResolvedAddress[]>;

/** The real adapter: the system resolver, every address, in its order. */
export const systemLookup: EgressLookup = (host) =>
  dns.promises.lookup(host, { all: true, verbatim: true });

const LOOKUP_TIMEOUT_MS = 10_000;

export class LookupFailed extends Error {
  constructor(
    readonly host: string,
    readonly why: string,
    readonly timedOut = false,
  ) {
    super(`cannot resolve ${host}: ${why}`);
  }
}

/** Resolves the names the egress proxy connects to; a test hands it a double of DNS (`use`). */
@Injectable()
export class EgressResolver {
  private lookupWith: EgressLookup = systemLookup;

  use(lookup: EgressLookup): void {
    this.lookupWith = lookup;
  }

  async lookup(host: string): Promise<ResolvedAddress[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new LookupFailed(host, `no answer in ${LOOKUP_TIMEOUT_MS} ms`, true)),
        LOOKUP_TIMEOUT_MS,
      );
    });
    try {
      const found = await Promise.race([this.lookupWith(host), timeout]);
      if (found.length === 0) throw new LookupFailed(host, 'no address');
      return found;
    } catch (e) {
      if (e instanceof LookupFailed) throw e;
      throw new LookupFailed(host, (e as NodeJS.ErrnoException).code ?? String(e));
    } finally {
      clearTimeout(timer);
    }
  }
}
