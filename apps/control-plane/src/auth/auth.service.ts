import type { IncomingHttpHeaders } from 'node:http';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import type { AppConfig } from '../config';
import { SHARED_STATE, type SharedState } from '../infrastructure/shared-state';
import { APP_CONFIG } from '../infrastructure/tokens';
import { AccountStore } from './account-store';
import { crossSite, tokenOf } from './credentials-of';
import { SignInThrottle } from './sign-in-throttle';
import { IDLE_LIMIT_MS, WebSessions } from './web-sessions';

export interface SignedIn {
  username: string;
  token: string;
}

/**
 * Who a request or a socket is: the person signed in with the local account, or nobody. The
 * account is made at the first start (see AccountStore.ensure); its password never reaches a
 * log or the event history.
 */
@Injectable()
export class AuthService implements OnModuleInit {
  private readonly logger = new Logger('Auth');
  private readonly accounts: AccountStore;
  private readonly sessions: WebSessions;
  private readonly throttle: SignInThrottle;
  private readonly attempts = new Map<string, Promise<SignedIn>>();
  private readonly signOutListeners = new Set<() => void>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_STATE) state: SharedState,
  ) {
    this.accounts = new AccountStore(config.dataDir);
    this.sessions = new WebSessions(state);
    this.throttle = new SignInThrottle(state);
  }

  async onModuleInit(): Promise<void> {
    await this.sessions.importLegacyFile(this.config.dataDir);
    const { account, generated } = await this.accounts.ensure(
      this.config.adminUser,
      this.config.adminPassword,
    );
    if (generated)
      this.logger.warn(
        `created the account "${account.username}"; its password is in ${this.accounts.initialPasswordFile} ` +
          '(set your own with SESSIONBOXER_ADMIN_PASSWORD or `npm run sessionboxer -- password`)',
      );
  }

  private crossSite(headers: IncomingHttpHeaders): boolean {
    return crossSite(headers, this.config.publicUrl);
  }

  get idleLimitSeconds(): number {
    return IDLE_LIMIT_MS / 1000;
  }

  /**
   * One attempt at a time per address: the next waits for the previous one's verdict, so
   * parallel guesses cannot all slip in before the first failures are counted.
   */
  async signIn(
    username: unknown,
    password: unknown,
    request: { address: string; headers: IncomingHttpHeaders },
  ): Promise<SignedIn> {
    if (this.crossSite(request.headers))
      throw new DomainError(ErrorCode.Forbidden, "a sign-in from another site's page is refused");
    const address = request.address;
    const previous = this.attempts.get(address) ?? Promise.resolve();
    const mine = previous
      .catch(() => undefined)
      .then(() => this.attempt(username, password, address));
    this.attempts.set(address, mine);
    try {
      return await mine;
    } finally {
      if (this.attempts.get(address) === mine) this.attempts.delete(address);
    }
  }

  private async attempt(username: unknown, password: unknown, address: string): Promise<SignedIn> {
    const wait = await this.throttle.waitSeconds(address);
    if (wait > 0)
      throw new DomainError(
        ErrorCode.TooManyAttempts,
        `too many failed sign-ins from this address; try again in ${wait} s`,
        { retryAfterSeconds: wait },
      );
    if (typeof username !== 'string' || typeof password !== 'string')
      throw new DomainError(ErrorCode.ValidationFailed, 'sign-in needs { username, password }');
    if (!(await this.accounts.check(username, password))) {
      await this.throttle.failed(address);
      throw new DomainError(ErrorCode.Unauthenticated, 'wrong user name or password');
    }
    await this.throttle.succeeded(address);
    return { username, token: await this.sessions.open(username) };
  }

  async signOut(headers: IncomingHttpHeaders): Promise<void> {
    const token = tokenOf(headers);
    if (!token || this.crossSite(headers)) return;
    await this.sessions.close(token);
    for (const listener of this.signOutListeners) listener();
  }

  /** Called after each sign-out, so sockets opened with that sign-in can be closed. */
  onSignOut(listener: () => void): () => void {
    this.signOutListeners.add(listener);
    return () => this.signOutListeners.delete(listener);
  }

  /** The signed-in user name, or null (no token, an unknown one, or a cross-site browser). */
  async identify(headers: IncomingHttpHeaders): Promise<string | null> {
    if (this.crossSite(headers)) return null;
    const token = tokenOf(headers);
    const session = token ? await this.sessions.resolve(token) : null;
    if (!session) return null;
    // A password set since this sign-in (from the CLI, say) ends it.
    const account = this.accounts.read();
    if (!account || account.username !== session.username) return null;
    return session.createdAt >= Date.parse(account.updatedAt) ? session.username : null;
  }
}
