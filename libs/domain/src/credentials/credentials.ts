import { assertNever, type Command, type Decider, type DomainEvent } from '../kernel';
import { oneOf } from '../kernel/validation';

/**
 * The credentials agents run with. Their VALUES never enter the event log (an auditor reads
 * every event): they live in the control plane's credential vault, and the log records only
 * that one was set or cleared, when and by whom.
 */
export type CredentialName =
  'anthropicApiKey' | 'claudeCodeOauthToken' | 'openaiApiKey' | 'openrouterApiKey';

export const CREDENTIAL_NAMES: readonly CredentialName[] = [
  'anthropicApiKey',
  'claudeCodeOauthToken',
  'openaiApiKey',
  'openrouterApiKey',
];

/** A credential's value, in characters: the vault refuses a longer one, as the API does. */
export const CREDENTIAL_VALUE_MAX_LENGTH = 4096;

/** The environment variable a harness reads each credential from. */
export const CREDENTIAL_ENV: Readonly<Record<CredentialName, string>> = {
  anthropicApiKey: 'ANTHROPIC_API_KEY',
  claudeCodeOauthToken: 'CLAUDE_CODE_OAUTH_TOKEN',
  openaiApiKey: 'OPENAI_API_KEY',
  openrouterApiKey: 'OPENROUTER_API_KEY',
};

export type RecordCredentialChange = Command<
  'RecordCredentialChange',
  { name: CredentialName; set: boolean }
>;

export type CredentialChanged = DomainEvent<
  'CredentialChanged',
  { name: CredentialName; set: boolean; at: string }
>;

export interface CredentialsState {
  set: Readonly<Partial<Record<CredentialName, boolean>>>;
}

export function credentialsStream(): string {
  return 'credentials-global';
}

export function validCredentialName(value: unknown): CredentialName {
  return oneOf(value, 'name', CREDENTIAL_NAMES);
}

function decide(command: RecordCredentialChange, _state: CredentialsState): CredentialChanged[] {
  switch (command.type) {
    case 'RecordCredentialChange': {
      const name = validCredentialName(command.data.name);
      // Setting a credential again is recorded too: it is a new value, and who changed it matters.
      const data = { name, set: command.data.set === true, at: command.metadata.at };
      return [{ type: 'CredentialChanged', data }];
    }
    default:
      return assertNever(command.type);
  }
}

function evolve(state: CredentialsState, event: CredentialChanged): CredentialsState {
  return { set: { ...state.set, [event.data.name]: event.data.set } };
}

export const credentialsDecider: Decider<
  RecordCredentialChange,
  CredentialChanged,
  CredentialsState
> = { decide, evolve, initialState: { set: {} } };
