export * from './kit';
export * from './bridge/protocol';
export * from './sessionboxer/port';
export * from './sessionboxer';
export * from './e2e';
