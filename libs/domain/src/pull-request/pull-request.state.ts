import { DomainError, ErrorCode } from '../kernel';
import type { PrItemKind, PrRef, PrState } from './pull-request.commands';
import { formatPrId } from './pr-id';

/** What `decide` needs of an item: whether it is known, its check conclusion, if addressed. */
export interface PrItemState {
  kind: PrItemKind;
  conclusion: string | null;
  addressed: boolean;
}

export type PullRequestState =
  | { status: 'absent' }
  | {
      status: 'attached';
      ref: PrRef;
      title: string;
      state: PrState;
      /** Item id → what decide needs; look ids up with `has` (plain record). */
      items: Readonly<Record<string, PrItemState>>;
    };

export type AttachedPr = Exclude<PullRequestState, { status: 'absent' }>;

export const initialPullRequestState: PullRequestState = { status: 'absent' };

export function attachedPr(state: PullRequestState, ref: PrRef): AttachedPr {
  if (state.status === 'absent') {
    throw new DomainError(
      ErrorCode.NotFound,
      `${formatPrId(ref)} is not attached to session ${ref.sessionId}; attach it first`,
      { sessionId: ref.sessionId, prId: formatPrId(ref) },
    );
  }
  return state;
}
