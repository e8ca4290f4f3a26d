import { DUPLICATE, unlessDuplicate } from "../../db/errors";
import { uuidv7 } from "../../db/uuid";
import type { CredentialModel, CredentialRecord } from "./credential.model";

export type RenderedAssets = Pick<
  CredentialRecord,
  | "userId"
  | "uniqueId"
  | "qrCodeFileId"
  | "certificateFileId"
  | "idCardFileId"
  | "validUntil"
  | "generatedAt"
>;

/** Every database call on rendered credentials. */
export class CredentialRepository {
  constructor(private readonly credentials: CredentialModel) {}

  ofMember(memberId: string): Promise<CredentialRecord | null> {
    return this.credentials.findOne({ memberId }).lean<CredentialRecord>().exec();
  }

  /**
   * Stores the member's new assets; answers the record they replace (its files to release). A
   * first render racing another of the same member meets the unique memberId: it tries once
   * more and replaces the other's.
   */
  async replace(memberId: string, assets: RenderedAssets): Promise<CredentialRecord | null> {
    const upsert = () =>
      this.credentials
        .findOneAndUpdate(
          { memberId },
          { $set: assets, $setOnInsert: { _id: uuidv7() } },
          { upsert: true, returnDocument: "before", runValidators: true },
        )
        .lean<CredentialRecord>()
        .exec();
    const replaced = await unlessDuplicate(upsert());
    return replaced === DUPLICATE ? upsert() : replaced;
  }

  ofUser(userId: string): Promise<CredentialRecord[]> {
    return this.credentials.find({ userId }).lean<CredentialRecord[]>().exec();
  }

  async deleteOfUser(userId: string): Promise<void> {
    await this.credentials.deleteMany({ userId }).exec();
  }
}
