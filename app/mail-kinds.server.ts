import { prepareAlertMail } from "~/features/alerts/alert-mail.server";
import {
  preparePasswordResetMail,
  prepareSecondFactorAlertMail,
} from "~/features/accounts/account-mail.server";
import { prepareRepliedMail, prepareReplyMail } from "~/features/conversation/reply-mail.server";
import {
  prepareContactAcknowledgement,
  prepareContactNotification,
} from "~/features/desk/contact-mail.server";
import { prepareRequestLinkMail } from "~/features/buyer-request/request-link-mail.server";
import { prepareFollowUpMail } from "~/features/follow-ups/follow-up-mail.server";
import { prepareLeaseFileMail } from "~/features/lease-file/lease-file-mail.server";
import { MAIL_KINDS } from "~/features/mail/mail-outbox.server";
import type { MailRenderers } from "~/features/mail/mail-renderer.server";
import { prepareSavedSearchMail } from "~/features/saved-searches/saved-search-mail.server";
import { prepareQuoteMail } from "~/features/quotes/quote-mail.server";

// The one table of the outbox's mail kinds, as routes.ts is of addresses: each kind and the
// renderer of the feature it belongs to, which makes the mail when it leaves. The worker
// (features/mail/mail.server.ts) is given this table at start and imports no feature itself.
// A kind of MAIL_KINDS missing here does not compile; a row of an unknown kind is marked failed.
export const mailRenderers: MailRenderers = {
  // A contact request: the sales team's notification, the visitor's acknowledgement (issue 22).
  [MAIL_KINDS.contactNotification]: prepareContactNotification,
  [MAIL_KINDS.contactAcknowledgement]: prepareContactAcknowledgement,
  // An account's own security: the password-reset link (issue 20), wrong codes (issue 28).
  [MAIL_KINDS.passwordReset]: preparePasswordResetMail,
  [MAIL_KINDS.secondFactorAlert]: prepareSecondFactorAlertMail,
  // Availability alerts (issue 30): the double opt-in link, the offer is deliverable again.
  [MAIL_KINDS.alertConfirmation]: prepareAlertMail,
  [MAIL_KINDS.alertAvailable]: prepareAlertMail,
  // Saved searches (issue 42): the double opt-in link, the address's daily digest.
  [MAIL_KINDS.savedSearchConfirmation]: prepareSavedSearchMail,
  [MAIL_KINDS.savedSearchDigest]: prepareSavedSearchMail,
  // A sent quote (issue 29): to the buyer, its answer, the reminder, its first opening.
  [MAIL_KINDS.quoteSent]: prepareQuoteMail,
  [MAIL_KINDS.quoteAnswered]: prepareQuoteMail,
  [MAIL_KINDS.quoteReminder]: prepareQuoteMail,
  [MAIL_KINDS.quoteOpened]: prepareQuoteMail,
  // The request's conversation (issue 40): a message to the buyer, the buyer answered.
  [MAIL_KINDS.requestReply]: prepareReplyMail,
  [MAIL_KINDS.requestReplied]: prepareRepliedMail,
  // Follow-ups (issue 40): a late first answer, an account's morning digest.
  [MAIL_KINDS.requestLate]: prepareFollowUpMail,
  [MAIL_KINDS.followUpDigest]: prepareFollowUpMail,
  // The LOA file (issue 41): complete, still missing, the archive to the financer, the signed PV.
  [MAIL_KINDS.leaseFileComplete]: prepareLeaseFileMail,
  [MAIL_KINDS.leaseFileMissing]: prepareLeaseFileMail,
  [MAIL_KINDS.leaseFileFinancer]: prepareLeaseFileMail,
  [MAIL_KINDS.deliveryReportSigned]: prepareLeaseFileMail,
  // `Ma demande` (issue 42): a new link, asked for by reference and address.
  [MAIL_KINDS.requestLink]: prepareRequestLinkMail,
};
