import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from './boxes';

/** The control plane's version, as whoami and session.json report it (package.json's). */
export const SESSIONBOXER_VERSION: string = (
  JSON.parse(fs.readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as {
    version: string;
  }
).version;
