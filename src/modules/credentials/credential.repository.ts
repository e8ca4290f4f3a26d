import type { CredentialModel, CredentialRecord } from "./credential.model";

export type RenderedAssets = Pick<
  CredentialRecord,
  "userId" | "uniqueId" | "qrCodeFileId" | "certificateFileId" | "idCardFileId" | "generatedAt"
>;

/** Every database call on rendered credentials. */
export class CredentialRepository {
  constructor(private readonly credentials: CredentialModel) {}

  ofMember(memberId: string): Promise<CredentialRecord | null> {
    return this.credentials.findOne({ memberId }).lean<CredentialRecord>().exec();
  }

  /** Stores the member's new assets; answers the record they replace (its files to release). */
  replace(
    memberId: string,
    newId: string,
    assets: RenderedAssets,
  ): Promise<CredentialRecord | null> {
    return this.credentials
      .findOneAndUpdate(
        { memberId },
        { $set: assets, $setOnInsert: { _id: newId } },
        { upsert: true, returnDocument: "before", runValidators: true },
      )
      .lean<CredentialRecord>()
      .exec();
  }

  ofUser(userId: string): Promise<CredentialRecord[]> {
    return this.credentials.find({ userId }).lean<CredentialRecord[]>().exec();
  }

  async deleteOfUser(userId: string): Promise<void> {
    await this.credentials.deleteMany({ userId }).exec();
  }
}
