import { greaterThan, lessThan } from "../../db/operators";
import type { UploadTicketModel, UploadTicketRecord } from "./upload-ticket.model";

/** Every database call on the site's ingest links. */
export class UploadTicketRepository {
  constructor(private readonly tickets: UploadTicketModel) {}

  async insertMany(tickets: Omit<UploadTicketRecord, "createdAt" | "updatedAt">[]): Promise<void> {
    await this.tickets.insertMany(tickets);
  }

  findById(id: string): Promise<UploadTicketRecord | null> {
    return this.tickets.findById(id).lean<UploadTicketRecord>().exec();
  }

  /**
   * Marks the link used, if it is unused and unexpired: one conditional update, so of two PUTs
   * at once (on any replicas) exactly one gets it. Answers whether this call did.
   */
  async claim(id: string, now: Date): Promise<boolean> {
    const { modifiedCount } = await this.tickets
      .updateOne({ _id: id, usedAt: null, expiresAt: greaterThan(now) }, { $set: { usedAt: now } })
      .exec();
    return modifiedCount === 1;
  }

  /** The owner's links that expired before `now` (the TTL index may be slow, or absent). */
  async deleteExpiredOf(ownerId: string, now: Date): Promise<void> {
    await this.tickets.deleteMany({ ownerId, expiresAt: lessThan(now) }).exec();
  }

  async deleteAllOf(ownerId: string): Promise<void> {
    await this.tickets.deleteMany({ ownerId }).exec();
  }
}
