/** Injection tokens for the ports the Nest edge is wired to. */
export const APP_CONFIG = Symbol('AppConfig');
export const EVENT_STORE = Symbol('EventStore');
export const READ_MODELS = Symbol('ReadModelStore');
export const PROJECTION_RUNNER = Symbol('ProjectionRunner');
export const BOX_DRIVER = Symbol('BoxDriver');
