/** The one-shot job that records an approval's expiry at its deadline (run by the jobs port). */
export const APPROVAL_EXPIRY_PREFIX = 'approval-expiry-';
export const approvalExpiryJobId = (approvalId: string): string =>
  `${APPROVAL_EXPIRY_PREFIX}${approvalId}`;
