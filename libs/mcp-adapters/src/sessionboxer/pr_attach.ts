import { z } from 'zod';
import { int, NUMBER_PART, OWNER, OWNER_PART, REPO_NAME, REPO_PART } from '../kit/fields';
import { defineTool } from '../kit/define-tool';
import type { ArgIssue } from '../kit/tool';
import { ToolCallError } from '../kit/call-error';

const PR_URL_FORM = 'https://github.com/<owner>/<repo>/pull/<number>';
// A trailing /files, /commits, ?query or #fragment is what a copied URL often carries.
const PR_URL = new RegExp(
  `^https://github\\.com/(${OWNER_PART})/(${REPO_PART})/pull/(${NUMBER_PART})(?:[/?#].*)?$`,
);

export const prAttachInput = {
  url: z
    .string({ invalid_type_error: 'url must be a string' })
    .trim()
    .regex(PR_URL, `url must be a GitHub pull request URL: ${PR_URL_FORM}`)
    .optional(),
  repo: z
    .string({ invalid_type_error: 'repo must be a string "owner/name"' })
    .trim()
    .refine((value) => isRepo(value), 'repo must be "owner/name", e.g. "octo-org/api"')
    .optional(),
  number: int('number', 1, 2_147_483_647).optional(),
};

type PrAttachArgs = z.infer<z.ZodObject<typeof prAttachInput>>;
type PrTarget = { owner: string; repo: string; number: number };

function isRepo(value: string): boolean {
  const [owner, name, ...rest] = value.split('/');
  const validName = REPO_NAME.test(name ?? '') && name !== '.' && name !== '..';
  return rest.length === 0 && OWNER.test(owner) && validName;
}

const ONE_FORM = `give either url (${PR_URL_FORM}) or repo ("owner/name") with number`;

/** Exactly one of the two forms: a URL, or repo and number together. */
function checkForm(args: PrAttachArgs): ArgIssue[] {
  const { url, repo, number } = args;
  if (url !== undefined && (repo !== undefined || number !== undefined)) {
    const other = repo !== undefined ? 'repo' : 'number';
    return [{ field: other, message: `url and ${other} were both given: ${ONE_FORM}, not both` }];
  }
  if (url !== undefined) return [];
  if (repo === undefined && number === undefined) return [{ field: 'url', message: ONE_FORM }];
  if (number === undefined) return [{ field: 'number', message: 'number is required with repo' }];
  if (repo === undefined) return [{ field: 'repo', message: 'repo is required with number' }];
  return [];
}

/** The PR the arguments name; throws when they do not name exactly one. */
export function prTarget(args: PrAttachArgs): PrTarget {
  const issues = checkForm(args);
  if (issues.length) throw new ToolCallError('pr_attach', issues);
  const fromUrl = args.url === undefined ? null : PR_URL.exec(args.url);
  if (fromUrl) return { owner: fromUrl[1], repo: fromUrl[2], number: Number(fromUrl[3]) };
  const [owner, repo] = (args.repo ?? '').split('/');
  return { owner, repo, number: args.number ?? 0 };
}

/** Attaches a GitHub pull request to the calling session. */
export const prAttachTool = defineTool({
  name: 'pr_attach',
  title: 'Attach a pull request',
  description: [
    'Attach a pull request to this session: the person sees it in the PRs pane with its checks',
    'and review comments from then on, and the session is notified when reviewers comment or a',
    'check fails. Call it right after you create a PR. Give exactly one of: url, the PR URL',
    `(${PR_URL_FORM}), or repo ("owner/name") with number. Attaching the same PR again changes`,
    'nothing. Returns the PR\'s summary (id "owner/repo#number", state, checks, unaddressed);',
    'the transcript gets the marker "attached PR #n (owner/repo)".',
  ].join(' '),
  input: prAttachInput,
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  route: 'control-plane',
  check: checkForm,
  // async: a refusal is a rejected promise, like every other failure of a handle.
});
