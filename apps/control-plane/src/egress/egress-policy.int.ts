import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DEFAULT_EGRESS_ALLOW_LIST, egressPolicyStream } from '@sessionboxer/domain';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import type { SqliteReadModelStore } from '@sessionboxer/projections';
import type { CommandBus } from '../infrastructure/command-bus';
import { EgressPolicyService } from './egress-policy.service';

/**
 * The allow lists are cached per instance; a change another instance (another process on the
 * same store file) records must reach this one's next connection.
 */
describe('EgressPolicyService with another instance writing the same store', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sb-egress-policy-'));
  const file = path.join(dir, 'events.sqlite');
  const mine = SqliteEventStore.open({ path: file });
  const other = SqliteEventStore.open({ path: file });
  const service = new EgressPolicyService(
    mine,
    null as unknown as SqliteReadModelStore,
    null as unknown as CommandBus,
  );
  afterAll(async () => {
    await service.onApplicationShutdown();
    await mine.close();
    await other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads the global list again once the other instance's change is in the log", async () => {
    service.onApplicationBootstrap();
    expect(await service.allowListFor(randomUUID())).toEqual([...DEFAULT_EGRESS_ALLOW_LIST]);
    const at = new Date().toISOString();
    await other.appendToStream(egressPolicyStream(), [
      {
        id: randomUUID(),
        type: 'EgressPolicySet',
        data: { allow: ['example.org:443'], at },
        metadata: { actor: { kind: 'person', id: 'admin' }, at } as never,
      },
    ]);
    const deadline = Date.now() + 10_000;
    let list = await service.allowListFor(randomUUID());
    while (list[0] !== 'example.org:443' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      list = await service.allowListFor(randomUUID());
    }
    expect(list).toEqual(['example.org:443']);
  });
});
