import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta, PERSON } from '../../test/session-fixtures';
import { sshKeyDecider, type SshKeyCommand, type SshKeyEvent } from './ssh-key.decider';

const spec = DeciderSpecification.for(sshKeyDecider);
const FP = `SHA256:${'A'.repeat(43)}`;
const cmd = (type: SshKeyCommand['type'], data: unknown) =>
  ({ type, data, metadata: meta() }) as SshKeyCommand;
const key = {
  keyId: 'k1',
  kind: 'file',
  name: 'ops',
  type: 'ssh-ed25519',
  fingerprint: FP,
  comment: 'ops@host',
};
const added = { type: 'SshKeyAdded', data: { ...key, by: PERSON, at: AT } } as SshKeyEvent;

describe('ssh key decider', () => {
  it('adds a key with its metadata only', () =>
    spec.given([]).when(cmd('AddSshKey', key)).then([added]));
  it('refuses an unknown key type or a bad fingerprint', () => {
    spec
      .given([])
      .when(cmd('AddSshKey', { ...key, type: 'ssh-dss' }))
      .thenThrows(ErrorCode.ValidationFailed, /type/);
    spec
      .given([])
      .when(cmd('AddSshKey', { ...key, fingerprint: 'x' }))
      .thenThrows(ErrorCode.ValidationFailed, /fingerprint/);
  });
  it('is added once and removed once', () => {
    spec.given([added]).when(cmd('AddSshKey', key)).thenThrows(ErrorCode.AlreadyExists);
    spec
      .given([added])
      .when(cmd('RemoveSshKey', { keyId: 'k1' }))
      .then([{ type: 'SshKeyRemoved', data: { keyId: 'k1', by: PERSON, at: AT } }]);
    spec
      .given([])
      .when(cmd('RemoveSshKey', { keyId: 'k1' }))
      .thenThrows(ErrorCode.NotFound);
  });
});
