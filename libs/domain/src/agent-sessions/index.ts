export * from './approval';
export * from './session-ledger';
