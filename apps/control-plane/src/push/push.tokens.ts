export const PUSH_STORE = Symbol('PUSH_STORE');
