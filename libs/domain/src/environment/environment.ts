import { assertNever, ErrorCode, type Command, type Decider, type DomainEvent } from '../kernel';
import { has, isPlainObject } from '../kernel/validation';
import { DEFAULT_ENVIRONMENT } from '../sandbox/sandbox.limits';
import { badArgument, refusal } from '../sandbox/sandbox.refusals';
import { SECRET_NAME_PATTERN, validSandboxName } from '../sandbox/sandbox.validation';

/**
 * An org's secrets environments, one stream per org. The events hold secrets' NAMES and
 * products only: values live encrypted in the control plane's secret vault and never enter
 * an event, a read model, a log or an answer.
 */
export function environmentsStream(orgId: string): string {
  return `environments-${orgId}`;
}

/** What a secret may be used by; a sandbox gets only secrets whose products include sandboxes. */
export type SecretProduct = 'sandboxes' | 'agents' | 'ci';
export const SECRET_PRODUCTS: readonly SecretProduct[] = ['sandboxes', 'agents', 'ci'];
export const SECRET_VALUE_MAX_LENGTH = 65_536;
export const ENVIRONMENTS_MAX = 50;
export const SECRETS_PER_ENVIRONMENT_MAX = 200;

type Data = Record<string, unknown>;
export type CreateEnvironment = Command<'CreateEnvironment', Data & { orgId: string }>;
export type SetSecret = Command<'SetSecret', Data & { orgId: string }>;
export type SetSecretProducts = Command<'SetSecretProducts', Data & { orgId: string }>;
export type DeleteSecret = Command<'DeleteSecret', Data & { orgId: string }>;
export type EnvironmentCommand = CreateEnvironment | SetSecret | SetSecretProducts | DeleteSecret;

interface Where {
  orgId: string;
  environment: string;
  at: string;
}
export type EnvironmentCreated = DomainEvent<'EnvironmentCreated', Where>;
export type SecretSet = DomainEvent<
  'SecretSet',
  Where & { name: string; products: SecretProduct[] }
>;
export type SecretProductsSet = DomainEvent<
  'SecretProductsSet',
  Where & { name: string; products: SecretProduct[] }
>;
export type SecretDeleted = DomainEvent<'SecretDeleted', Where & { name: string }>;
export type EnvironmentEvent = EnvironmentCreated | SecretSet | SecretProductsSet | SecretDeleted;
export const ENVIRONMENT_EVENT_TYPES: readonly EnvironmentEvent['type'][] = [
  'EnvironmentCreated',
  'SecretSet',
  'SecretProductsSet',
  'SecretDeleted',
];

/** Environment → secret name → its products. `default` is always there. */
export interface EnvironmentsState {
  environments: Readonly<Record<string, Readonly<Record<string, SecretProduct[]>>>>;
}

export function validSecretName(value: unknown): string {
  if (typeof value !== 'string' || !SECRET_NAME_PATTERN.test(value)) {
    throw badArgument(
      'name',
      'name must be a secret name such as OPENAI_API_KEY (letters, digits, _)',
    );
  }
  return value;
}

export function validProducts(value: unknown): SecretProduct[] {
  const list = Array.isArray(value) ? value : null;
  const products = SECRET_PRODUCTS.filter((p) => list?.includes(p));
  if (list === null || products.length !== new Set(list).size) {
    throw badArgument('products', `products must be a list of ${SECRET_PRODUCTS.join(', ')}`);
  }
  return products;
}

function environmentOf(state: EnvironmentsState, value: unknown) {
  const environment = validSandboxName(value ?? DEFAULT_ENVIRONMENT, 'environment');
  if (!has(state.environments, environment)) {
    throw refusal(
      'unknown_environment',
      ErrorCode.NotFound,
      `there is no environment ${environment}; create it with create_environment`,
      { environment },
    );
  }
  return { environment, secrets: state.environments[environment] };
}

/**
 * The secrets a sandbox names, checked against its environment: unknown_environment when the
 * environment does not exist, unknown_secrets when one is missing or lacks `sandboxes`.
 */
export function sandboxSecretsIn(
  state: EnvironmentsState,
  environment: string,
  names: readonly string[],
): void {
  const { secrets } = environmentOf(state, environment);
  const missing = names.filter((n) => !has(secrets, n) || !secrets[n].includes('sandboxes'));
  if (missing.length > 0) {
    throw refusal(
      'unknown_secrets',
      ErrorCode.NotFound,
      `secrets not in environment ${environment} with the sandboxes product: ${missing.join(', ')}; set them with set_secret or set_secret_products`,
      { secrets: missing, environment },
    );
  }
}

function decide(command: EnvironmentCommand, state: EnvironmentsState): EnvironmentEvent[] {
  const data = command.data;
  if (!isPlainObject(data)) throw badArgument('arguments', 'the arguments must be an object');
  const where = { orgId: data.orgId, at: command.metadata.at };
  switch (command.type) {
    case 'CreateEnvironment': {
      const environment = validSandboxName(data.name, 'name');
      if (has(state.environments, environment)) {
        throw refusal(
          'environment_exists',
          ErrorCode.AlreadyExists,
          `environment ${environment} already exists`,
        );
      }
      if (Object.keys(state.environments).length >= ENVIRONMENTS_MAX) {
        throw refusal(
          'limit_reached',
          ErrorCode.LimitReached,
          `an org has at most ${ENVIRONMENTS_MAX} environments`,
        );
      }
      return [{ type: 'EnvironmentCreated', data: { ...where, environment } }];
    }
    case 'SetSecret': {
      const { environment, secrets } = environmentOf(state, data.environment);
      const name = validSecretName(data.name);
      const products =
        data.products === undefined
          ? (secrets[name] ?? ['sandboxes'])
          : validProducts(data.products);
      if (!has(secrets, name) && Object.keys(secrets).length >= SECRETS_PER_ENVIRONMENT_MAX) {
        throw refusal(
          'limit_reached',
          ErrorCode.LimitReached,
          `an environment holds at most ${SECRETS_PER_ENVIRONMENT_MAX} secrets`,
        );
      }
      // Recorded every time: a new value was stored, and when and by whom matters.
      return [{ type: 'SecretSet', data: { ...where, environment, name, products } }];
    }
    case 'SetSecretProducts': {
      const { environment, secrets } = environmentOf(state, data.environment);
      const name = validSecretName(data.name);
      if (!has(secrets, name)) {
        throw refusal(
          'unknown_secrets',
          ErrorCode.NotFound,
          `there is no secret ${name} in ${environment}`,
          { secrets: [name] },
        );
      }
      const products = validProducts(data.products);
      return [{ type: 'SecretProductsSet', data: { ...where, environment, name, products } }];
    }
    case 'DeleteSecret': {
      const { environment, secrets } = environmentOf(state, data.environment);
      const name = validSecretName(data.name);
      if (!has(secrets, name)) return [];
      return [{ type: 'SecretDeleted', data: { ...where, environment, name } }];
    }
    default:
      return assertNever(command);
  }
}

function evolve(state: EnvironmentsState, event: EnvironmentEvent): EnvironmentsState {
  const { environment } = event.data;
  const secrets = state.environments[environment] ?? {};
  const put = (next: Record<string, SecretProduct[]>) => ({
    environments: { ...state.environments, [environment]: next },
  });
  switch (event.type) {
    case 'EnvironmentCreated':
      return put({});
    case 'SecretSet':
    case 'SecretProductsSet':
      return put({ ...secrets, [event.data.name]: event.data.products });
    case 'SecretDeleted': {
      const { [event.data.name]: _gone, ...rest } = secrets;
      return put(rest);
    }
    default:
      return assertNever(event);
  }
}

export const environmentsDecider: Decider<EnvironmentCommand, EnvironmentEvent, EnvironmentsState> =
  {
    decide,
    evolve,
    initialState: { environments: { [DEFAULT_ENVIRONMENT]: {} } },
  };
