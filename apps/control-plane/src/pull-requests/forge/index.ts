export * from './forge.port';
export * from './github-forge';
export * from './github-webhook';
export * from './pr-poller';
