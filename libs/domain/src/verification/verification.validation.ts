import { absolutePath, characters, exactId, integer, invalid, text } from '../kernel/validation';

export const BRIEF_MAX = 2000;
export const CASE_TITLE_MAX = 200;
export const CASES_MAX = 50;
export const NOTE_MAX = 2000;
export const SUMMARY_MAX = 4000;
export const SKIP_REASON_MAX = 500;
const WORKSPACE = '/workspace/';
/** Controls other than newline and tab: a note or brief may have several lines. */
const CONTROL_BUT_LINES = /[\p{Cc}\p{Zl}\p{Zp}]/u;

export function validRunId(value: unknown): string {
  return exactId(value, 'runId');
}

/** Trimmed, 1–`max` characters, several lines allowed but no other control characters. */
export function paragraph(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string') throw invalid(field, `${field} must be a string`);
  const trimmed = value.replace(/\r\n/g, '\n').trim();
  if (trimmed.length === 0) throw invalid(field, `${field} must not be empty`);
  const length = characters(trimmed);
  if (length > max) {
    throw invalid(field, `${field} must be at most ${max} characters (it has ${length})`);
  }
  if (CONTROL_BUT_LINES.test(trimmed.replace(/[\n\t]/g, ' '))) {
    throw invalid(field, `${field} must not contain control characters other than newlines`);
  }
  return trimmed;
}

/** Optional text: absent is null (plain JSON: no `undefined` in stored events). */
export function optionalParagraph(value: unknown, field: string, max: number): string | null {
  return value === undefined || value === null ? null : paragraph(value, field, max);
}

/** 1–50 one-line titles, numbered from 1 in this order. */
export function validCases(value: unknown): { index: number; title: string }[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw invalid('cases', 'cases must list at least one case title');
  }
  if (value.length > CASES_MAX) {
    throw invalid('cases', `at most ${CASES_MAX} cases (got ${value.length})`);
  }
  return value.map((title, i) => ({
    index: i + 1,
    title: text(title, `cases[${i}]`, CASE_TITLE_MAX),
  }));
}

export function validIndex(value: unknown): number {
  return integer(value, 'index', 1, CASES_MAX);
}

/**
 * A screenshot or video the Auto QA pane shows: a file under /workspace, the folder the
 * control plane can read (the box's /tmp is its own).
 */
export function workspaceFile(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  const path = absolutePath(value, field);
  if (!path.startsWith(WORKSPACE) || path.length === WORKSPACE.length) {
    throw invalid(field, `${field} must be a file under /workspace (got ${JSON.stringify(path)})`);
  }
  return path;
}
