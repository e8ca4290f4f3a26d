import { Schema, type Connection, type Model } from "mongoose";
import { isDuplicateKeyError } from "./errors";

interface ClaimRecord {
  _id: string;
  at: Date;
}

const claimSchema = new Schema<ClaimRecord>(
  { _id: { type: String, required: true }, at: { type: Date, required: true } },
  { versionKey: false },
);

/**
 * "Only one of you may do this": the first insert of a key wins, every later one loses. A
 * conditional findOneAndUpdate is not enough on FerretDB v1 as released, whose filter check
 * and write are not one step (two racing requests can both pass the filter); the primary-key
 * index holds on both engines.
 */
export class Claims {
  private readonly claims: Model<ClaimRecord>;

  constructor(connection: Connection) {
    this.claims = connection.model<ClaimRecord>("Claim", claimSchema, "claims");
  }

  /** True for the first caller with this key, false for every other. */
  async take(key: string): Promise<boolean> {
    try {
      await this.claims.create({ _id: key, at: new Date() });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }
}
