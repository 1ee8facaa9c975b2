export * from './repository.commands';
export * from './repository.events';
export * from './repository.decider';
export { validBranchName, validCloneUrl, validRepoName } from './repository.validation';
