/**
 * Stream names are `category-id` (`session-3f2a…`), so EventStoreDB's `$ce-<category>`
 * projection groups them. The category is everything before the first dash.
 */
const CATEGORY = /^[a-z][a-z0-9_]*$/;

export function streamName(category: string, id: string): string {
  if (!CATEGORY.test(category)) throw new Error(`bad stream category: ${JSON.stringify(category)}`);
  if (id.length === 0) throw new Error('stream id must not be empty');
  return `${category}-${id}`;
}

export function parseStreamName(name: string): { category: string; id: string } {
  const dash = name.indexOf('-');
  if (dash <= 0) return { category: name, id: '' };
  return { category: name.slice(0, dash), id: name.slice(dash + 1) };
}
