import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT, meta } from '../../test/session-fixtures';
import { fold } from '../kernel';
import {
  environmentsDecider,
  sandboxSecretsIn,
  type EnvironmentCommand,
  type EnvironmentEvent,
} from './environment';

const spec = DeciderSpecification.for(environmentsDecider);
const cmd = (type: EnvironmentCommand['type'], data: Record<string, unknown>) => ({
  type,
  data: { orgId: 'o', ...data },
  metadata: meta(),
});
const set = (
  name: string,
  products = ['sandboxes'],
  environment = 'default',
): EnvironmentEvent => ({
  type: 'SecretSet',
  data: { orgId: 'o', environment, name, products: products as never, at: AT },
});

describe('environments decider', () => {
  describe('a new org', () => {
    const given = spec.given([]);
    it('has default; sets a secret there with sandboxes unless told; never takes a value', () => {
      given.when(cmd('SetSecret', { name: 'TOKEN' })).then([set('TOKEN')]);
      given.when(cmd('SetSecret', { name: 'TOKEN', value: 'x' })).then([set('TOKEN')]);
      given
        .when(cmd('SetSecret', { name: 'TOKEN', environment: 'prod' }))
        .thenThrows(ErrorCode.NotFound, /no environment prod; create it with create_environment/);
      given.when(cmd('CreateEnvironment', { name: 'default' })).thenThrows(ErrorCode.AlreadyExists);
      given
        .when(cmd('SetSecret', { name: 'X', products: ['nope'] }))
        .thenThrows(ErrorCode.ValidationFailed, /products must be/);
    });
  });

  it('unknown_environment and unknown_secrets, naming what is missing', () => {
    const state = fold(environmentsDecider, [set('A'), set('B', ['ci'])]);
    expect(() => sandboxSecretsIn(state, 'default', ['A'])).not.toThrow();
    expect(() => sandboxSecretsIn(state, 'prod', ['A'])).toThrow(/no environment prod/);
    expect(() => sandboxSecretsIn(state, 'default', ['A', 'B', 'C'])).toThrow(
      /with the sandboxes product: B, C/,
    );
  });
});
