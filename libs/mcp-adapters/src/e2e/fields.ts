import {
  BRIEF_MAX,
  CASE_TITLE_MAX,
  CASES_MAX,
  NOTE_MAX,
  SKIP_REASON_MAX,
  SUMMARY_MAX,
} from '@sessionboxer/domain';
import { z } from 'zod';
import { int, line, text } from '../kit/fields';

/** The limits of the Auto QA tools: the domain's, so the box refuses what the run would. */
export const E2E_LIMITS = {
  brief: BRIEF_MAX,
  caseTitle: CASE_TITLE_MAX,
  cases: CASES_MAX,
  note: NOTE_MAX,
  summary: SUMMARY_MAX,
  skip: SKIP_REASON_MAX,
} as const;

/** Controls other than newline, carriage return and tab. */
const CONTROL_BUT_LINES = /[^\P{Cc}\n\r\t]|[\p{Zl}\p{Zp}]/u;

/** Trimmed text of 1–`max` characters; several lines allowed, no other control characters. */
export function paragraph(field: string, max: number) {
  return text(field, max).refine(
    (value) => !CONTROL_BUT_LINES.test(value),
    `${field} must not contain control characters other than newlines and tabs`,
  );
}

/** 1–50 case titles, one line each; numbered from 1 in the order given. */
export function caseTitles(field: string) {
  return z
    .array(line('a case title', CASE_TITLE_MAX), {
      required_error: `${field} is required`,
      invalid_type_error: `${field} must be a list of case titles`,
    })
    .min(1, `${field} must list at least one case`)
    .max(CASES_MAX, `${field} must list at most ${CASES_MAX} cases`);
}

export function caseIndex() {
  return int('index', 1, CASES_MAX);
}

/**
 * A file the Auto QA pane shows (a screenshot, the video): an absolute path under /workspace,
 * where the control plane can read it; the box's /tmp is its own.
 */
export function workspaceFile(field: string) {
  return z
    .string({ invalid_type_error: `${field} must be a string: a path under /workspace` })
    .trim()
    .refine(
      (value) =>
        value.startsWith('/workspace/') &&
        value
          .split('/')
          .slice(1)
          .every((s) => s !== '' && s !== '.' && s !== '..'),
      `${field} must be a file under /workspace, e.g. /workspace/qa/1.png (no "." or ".." segments)`,
    );
}
