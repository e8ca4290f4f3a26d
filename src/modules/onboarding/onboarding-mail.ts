import type { Logger } from "../../logger";
import type { MailMessage, Mailer } from "../../mail/mailer";
import type { OnboardingMember } from "../members/member-onboarding";
import type { OnboardingRecords } from "./onboarding-members";

type Recipient = { to: string; name: string; appUrl: string };

/**
 * Mails a decision to the member in the background: the decision stands whatever the mail
 * does, and a failure is logged.
 */
export class OnboardingMail {
  constructor(
    private readonly records: OnboardingRecords,
    private readonly mailer: Mailer,
    private readonly log: Logger,
    private readonly appUrl: string,
  ) {}

  toMember(
    record: OnboardingMember,
    build: (recipient: Recipient) => MailMessage | Promise<MailMessage>,
  ): void {
    this.records
      .contactOf(record)
      .then(async (contact) => {
        if (!contact) return;
        this.mailer.send(
          await build({ to: contact.email, name: contact.name, appUrl: this.appUrl }),
        );
      })
      .catch((error: unknown) => this.log.error({ err: error }, "onboarding mail not sent"));
  }
}
