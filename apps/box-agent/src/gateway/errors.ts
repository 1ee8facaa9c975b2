/**
 * A call that never got an answer from the control plane (as opposed to a tool error, which is
 * an answer). The HTTP status tells the MCP server which of the two it is.
 */
export class BridgeError extends Error {
  constructor(
    readonly code: 'UNAVAILABLE' | 'CONFLICT',
    message: string,
    readonly httpStatus: 409 | 503 | 504,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}
