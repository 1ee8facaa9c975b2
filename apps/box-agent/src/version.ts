/** Sent in the hello frame; kept equal to package.json's version (a test checks it). */
export const DAEMON_VERSION = '0.1.0';
