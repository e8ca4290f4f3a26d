import type { ErasedAccount, PersonalDataEraser } from "./personal-data";

/**
 * Erasure of an account: asks each module that keeps personal data to erase its part, in the
 * order given (appointments before the member records they count on, mail last). The account
 * record itself is the users module's to remove once every part is gone.
 */
export class ErasureService {
  constructor(private readonly parts: () => readonly PersonalDataEraser[]) {}

  async erase(account: ErasedAccount): Promise<void> {
    for (const part of this.parts()) await part.erase(account);
  }
}
