import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta } from '../../test/session-fixtures';
import { sandboxNamesDecider, type SandboxNameCommand } from './sandbox-names.decider';

const spec = DeciderSpecification.for(sandboxNamesDecider);
const claim = (sandboxId: string, name = 'web'): SandboxNameCommand => ({
  type: 'ClaimSandboxName',
  data: { orgId: 'o', sandboxId, name },
  metadata: meta(),
});
const claimed = {
  type: 'SandboxNameClaimed' as const,
  data: { orgId: 'o', sandboxId: 'a', name: 'web', at: AT },
};

describe('sandbox names', () => {
  it('a live name is unique; the same sandbox claiming again is nothing; released is free', () => {
    spec.given([]).when(claim('a')).then([claimed]);
    spec.given([claimed]).when(claim('a')).thenNothing();
    spec
      .given([claimed])
      .when(claim('b'))
      .thenThrows(ErrorCode.AlreadyExists, /already named web/);
    const released = { type: 'SandboxNameReleased' as const, data: claimed.data };
    spec
      .given([claimed])
      .when({ type: 'ReleaseSandboxName', data: { orgId: 'o', sandboxId: 'a' }, metadata: meta() })
      .then([released]);
    spec
      .given([claimed, released])
      .when(claim('b'))
      .then([{ ...claimed, data: { ...claimed.data, sandboxId: 'b' } }]);
  });
});
