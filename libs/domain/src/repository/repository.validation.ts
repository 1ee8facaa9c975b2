import { characters, CONTROL, invalid } from '../kernel/validation';
import {
  BRANCH_NAME_MAX_LENGTH,
  CLONE_URL_MAX_LENGTH,
  REPO_NAME_MAX_LENGTH,
  REPO_NAME_PATTERN,
} from '../limits';

/** A repository's name: its folder under /workspace, so no `/`, no leading `.` or `-`. */
export function validRepoName(value: unknown, field = 'name'): string {
  if (typeof value !== 'string' || !REPO_NAME_PATTERN.test(value)) {
    throw invalid(
      field,
      `${field} must be a folder name: 1–${REPO_NAME_MAX_LENGTH} letters, digits, "_", "." or "-", not starting with "." or "-" (got ${JSON.stringify(value)})`,
    );
  }
  return value;
}

/**
 * An http(s) URL git can clone over smart HTTP (the only protocol the git relay speaks), with
 * no user or password in it: the forge token is added by the control plane, never stored here.
 */
export function validCloneUrl(value: unknown, field = 'cloneUrl'): string {
  if (typeof value !== 'string') throw invalid(field, `${field} must be a string`);
  if (characters(value) > CLONE_URL_MAX_LENGTH || CONTROL.test(value) || /\s/.test(value)) {
    throw invalid(
      field,
      `${field} must be one line of at most ${CLONE_URL_MAX_LENGTH} characters without spaces`,
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(field, `${field} must be a URL such as https://github.com/octo/app.git`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalid(
      field,
      `${field} must be an https:// (or http://) URL; ${url.protocol} is not served by the git relay`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw invalid(
      field,
      `${field} must not hold a user or password: set the GitHub token in Global settings instead`,
    );
  }
  if (url.search !== '' || url.hash !== '') {
    throw invalid(field, `${field} must not have a query or a fragment`);
  }
  return value.replace(/\/+$/, '');
}

/** A branch name as `git check-ref-format --branch` takes it (the common rules). */
export function validBranchName(value: unknown, field = 'defaultBranch'): string {
  const ok =
    typeof value === 'string' &&
    characters(value) <= BRANCH_NAME_MAX_LENGTH &&
    /^[A-Za-z0-9._/-]+$/.test(value) &&
    !/^[-/.]|\/$|\.lock$|\.$|\.\.|\/\/|\/\./.test(value);
  if (!ok) {
    throw invalid(
      field,
      `${field} must be a branch name such as main: 1–${BRANCH_NAME_MAX_LENGTH} letters, digits, "_", ".", "/" or "-" (got ${JSON.stringify(value)})`,
    );
  }
  return value;
}
