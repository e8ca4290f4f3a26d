import type { OrganisationModel, OrganisationRecord } from "./organisation.model";

const ID = "organisation";

export type OrganisationFields = Omit<OrganisationRecord, "_id" | "createdAt" | "updatedAt">;

/** Every database call on the organisation's settings: one document, by `_id`. */
export class OrganisationRepository {
  constructor(private readonly settings: OrganisationModel) {}

  stored(): Promise<OrganisationRecord | null> {
    return this.settings.findById(ID).lean<OrganisationRecord>().exec();
  }

  /** Saves the whole set; answers the one it replaced (its seal to release), or null. */
  save(fields: OrganisationFields): Promise<OrganisationRecord | null> {
    return this.settings
      .findOneAndUpdate(
        { _id: ID },
        { $set: fields },
        { upsert: true, returnDocument: "before", runValidators: true },
      )
      .lean<OrganisationRecord>()
      .exec();
  }

  /** Erasure of the account that last saved them: the settings stay, unattributed. */
  async forgetEditor(userId: string): Promise<void> {
    await this.settings.updateOne(
      { _id: ID, updatedBy: userId },
      { $set: { updatedBy: "erased" } },
    );
  }
}
