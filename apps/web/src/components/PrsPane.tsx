import { plural, safeUrl } from '../format';
import type { PrItem, PrWithItems } from '@sessionboxer/contracts';

function Item({ item }: { item: PrItem }) {
  if (item.kind === 'check')
    return (
      <li className={`pr-item check check-${item.conclusion ?? 'pending'}`}>
        Check {item.body || item.id}: {item.conclusion ?? 'pending'}
      </li>
    );
  const where = item.path ? ` on ${item.path}${item.line ? `:${item.line}` : ''}` : '';
  return (
    <li className={item.addressed ? 'pr-item addressed' : 'pr-item'}>
      <span className="pr-item-mark">{item.addressed ? '✓ Addressed' : 'Not addressed'}</span>{' '}
      <span>
        {item.kind === 'review' ? 'Review' : 'Comment'} by {item.author ?? 'someone'}
        {where}:
      </span>{' '}
      {safeUrl(item.url) ? (
        <a href={safeUrl(item.url) ?? undefined} target="_blank" rel="noreferrer">
          {item.body || 'open on GitHub'}
        </a>
      ) : (
        <span>{item.body}</span>
      )}
    </li>
  );
}

/** The attached PRs: state, checks, and the review items with their addressed marks. */
export function PrsPane({ prs }: { prs: PrWithItems[] }) {
  if (prs.length === 0) return <p className="muted">No pull requests attached yet.</p>;
  return (
    <ul className="pane-list" aria-label="Pull requests">
      {prs.map((pr) => (
        <li key={pr.id} className="card pr">
          <h3>
            {safeUrl(pr.url) ? (
              <a href={safeUrl(pr.url) ?? undefined} target="_blank" rel="noreferrer">
                #{pr.number} {pr.title}
              </a>
            ) : (
              `#${pr.number} ${pr.title}`
            )}
          </h3>
          <p className="muted">
            {pr.owner}/{pr.repo} · <span className={`pr-state pr-${pr.state}`}>{pr.state}</span>
          </p>
          <p>
            Checks: {pr.checks.passed} passed, {pr.checks.failed} failed, {pr.checks.pending}{' '}
            pending · {plural(pr.unaddressed, 'review item')} not addressed
          </p>
          {pr.items.length > 0 && (
            <ul className="pr-items" aria-label={`Items of #${pr.number}`}>
              {pr.items.map((item) => (
                <Item key={item.id} item={item} />
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}
