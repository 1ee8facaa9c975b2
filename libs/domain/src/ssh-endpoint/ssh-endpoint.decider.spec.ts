import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta, PERSON } from '../../test/session-fixtures';
import {
  sshEndpointDecider,
  type SshEndpointCommand,
  type SshEndpointEvent,
} from './ssh-endpoint.decider';

const spec = DeciderSpecification.for(sshEndpointDecider);
const FP = `SHA256:${'A'.repeat(43)}`;
const FP2 = `SHA256:${'B'.repeat(43)}`;
const cmd = (type: SshEndpointCommand['type'], data: unknown) =>
  ({ type, data, metadata: meta() }) as SshEndpointCommand;
const fields = {
  name: 'db',
  host: 'db.example.com',
  port: 22,
  user: 'ops',
  keyId: null,
  hostKeyFingerprint: null,
};
const created: SshEndpointEvent = {
  type: 'SshEndpointCreated',
  data: { endpointId: 'e1', ...fields, by: PERSON, at: AT },
};

describe('ssh endpoint decider', () => {
  describe('none yet', () => {
    const given = spec.given([]);
    it('is created, port 22 unless given', () =>
      given
        .when(
          cmd('CreateSshEndpoint', {
            endpointId: 'e1',
            endpoint: { name: 'db', host: 'db.example.com', user: 'ops' },
          }),
        )
        .then([created]));
    it.each([
      [
        'a host with a space',
        { name: 'a', host: 'a b', user: 'u' },
        /endpoint.host must be a host name/,
      ],
      ['a port out of range', { name: 'a', host: 'h', user: 'u', port: 70000 }, /endpoint.port/],
      [
        'a user like an option',
        { name: 'a', host: 'h', user: '-oProxyCommand=x' },
        /endpoint.user/,
      ],
      [
        'a bad fingerprint',
        { name: 'a', host: 'h', user: 'u', hostKeyFingerprint: 'MD5:aa' },
        /SHA-256 fingerprint/,
      ],
      ['no user', { name: 'a', host: 'h' }, /endpoint.user is required/],
      [
        'an unknown field',
        { name: 'a', host: 'h', user: 'u', password: 'x' },
        /unknown field password/,
      ],
    ])('refuses %s, naming the field', (_c, endpoint, why) =>
      given
        .when(cmd('CreateSshEndpoint', { endpointId: 'e1', endpoint }))
        .thenThrows(ErrorCode.ValidationFailed, why),
    );
    it('has nothing to update or delete', () =>
      given.when(cmd('DeleteSshEndpoint', { endpointId: 'e1' })).thenThrows(ErrorCode.NotFound));
  });

  describe('created', () => {
    const given = spec.given([created]);
    it('pins the first host key it sees, once', () => {
      given
        .when(cmd('PinSshHostKey', { endpointId: 'e1', fingerprint: FP }))
        .then([{ type: 'SshHostKeyPinned', data: { endpointId: 'e1', fingerprint: FP, at: AT } }]);
    });
    it('an update that moves the host unpins the host key', () =>
      spec
        .given([
          created,
          { type: 'SshHostKeyPinned', data: { endpointId: 'e1', fingerprint: FP, at: AT } },
        ])
        .when(cmd('UpdateSshEndpoint', { endpointId: 'e1', endpoint: { host: 'db2.example.com' } }))
        .then([
          {
            type: 'SshEndpointUpdated',
            data: {
              host: 'db2.example.com',
              hostKeyFingerprint: null,
              endpointId: 'e1',
              by: PERSON,
              at: AT,
            },
          },
        ]));
    it('refuses another fingerprint than the pinned one', () =>
      spec
        .given([
          created,
          { type: 'SshHostKeyPinned', data: { endpointId: 'e1', fingerprint: FP, at: AT } },
        ])
        .when(cmd('PinSshHostKey', { endpointId: 'e1', fingerprint: FP2 }))
        .thenThrows(ErrorCode.Conflict, /pinned/));
    it('is deleted, and then gone', () => {
      const deleted: SshEndpointEvent = {
        type: 'SshEndpointDeleted',
        data: { endpointId: 'e1', by: PERSON, at: AT },
      };
      given.when(cmd('DeleteSshEndpoint', { endpointId: 'e1' })).then([deleted]);
      spec
        .given([created, deleted])
        .when(cmd('UpdateSshEndpoint', { endpointId: 'e1', endpoint: { name: 'x' } }))
        .thenThrows(ErrorCode.NotFound);
    });
  });
});
