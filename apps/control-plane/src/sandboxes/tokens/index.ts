export { SandboxTokens } from './sandbox-tokens.service';
export { callAsToken, tokenMay, type TokenVerdict } from './token-may';
export {
  isSandboxToken,
  type TokenAuth,
  type TokenIdentity,
  type TokenRefusalReason,
} from './token-identity';
