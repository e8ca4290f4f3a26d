import type { FieldCipher } from "../../db/field-cipher";
import type { Mailer } from "../../mail/mailer";
import type { ErasedAccount, PersonalDataEraser } from "../privacy/personal-data";
import { FORMER_EMAILS_FIELD } from "./user.model";
import type { UserRepository } from "./user.repository";

/**
 * The addresses an account had before its current one, kept (sealed) only while this service
 * keeps mail, so erasure forgets the mail sent to every one of them, not only to the last.
 */
export class EmailHistory implements PersonalDataEraser {
  constructor(
    private readonly users: UserRepository,
    private readonly cipher: FieldCipher,
    private readonly mailer: Mailer,
  ) {}

  /** With SMTP the service holds no mail to erase, so it remembers nothing. */
  async emailChanged(userId: string, _email: string, previous: string): Promise<void> {
    if (!this.mailer.keepsMessages) return;
    await this.users.rememberFormerEmail(userId, this.cipher.seal(previous, FORMER_EMAILS_FIELD));
  }

  /** The addresses kept for an account, opened (subject access lists them). */
  async formerEmailsOf(id: string): Promise<string[]> {
    const former = (await this.users.findById(id, { formerEmails: 1 }))?.formerEmails;
    return (former ?? []).map((sealed) => this.cipher.open(sealed, FORMER_EMAILS_FIELD));
  }

  /** The kept mail of every address the account had (the outbox of the default set-up). */
  async erase({ id, email }: ErasedAccount): Promise<void> {
    const addresses = await this.formerEmailsOf(id);
    for (const address of new Set([email, ...addresses])) await this.mailer.forget(address);
  }
}
