import { Injectable } from '@nestjs/common';
import { maskSecrets } from '../settings';
import { Environments } from './environments.service';

/**
 * The values of each sandbox's secrets, held in memory only: read from its environment when
 * it is created or resumed (and again after a restart, at its first command), given to each
 * command as environment variables, and masked out of what commands print.
 */
@Injectable()
export class SandboxSecrets {
  private readonly values = new Map<string, Record<string, string>>();

  constructor(private readonly environments: Environments) {}

  async load(
    sandboxId: string,
    orgId: string,
    environment: string,
    names: readonly string[],
  ): Promise<void> {
    this.values.set(sandboxId, await this.environments.values(orgId, environment, names));
  }

  async env(sandboxId: string, orgId: string, environment: string, names: readonly string[]) {
    if (!this.values.has(sandboxId)) await this.load(sandboxId, orgId, environment, names);
    return this.values.get(sandboxId) ?? {};
  }

  /** One secret's value, if the sandbox names it and its values are loaded. */
  valueOf(sandboxId: string, name: string): string | undefined {
    return this.values.get(sandboxId)?.[name];
  }

  mask<T>(sandboxId: string, value: T): T {
    return maskSecrets(value, Object.values(this.values.get(sandboxId) ?? {}));
  }

  forget(sandboxId: string): void {
    this.values.delete(sandboxId);
  }
}
