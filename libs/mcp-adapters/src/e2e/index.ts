/** The Auto QA tools (`e2e_*`) as data, their registry and their port. */
export * from './port';
export * from './fields';
export * from './e2e_plan';
export * from './e2e_case_start';
export * from './e2e_case_end';
export * from './e2e_finish';
export * from './registry';
