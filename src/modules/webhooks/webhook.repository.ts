import { findPage, type FoundPage, type PageWindow } from "../../db/page-query";
import { atMost } from "../../db/operators";
import type { WebhookEventType } from "./change-feed";
import {
  DeliveryStatus,
  type DeliveryAttempt,
  type WebhookDeliveryModel,
  type WebhookDeliveryRecord,
  type WebhookEndpointModel,
  type WebhookEndpointRecord,
} from "./webhook.model";

export type EndpointChanges = Partial<
  Pick<WebhookEndpointRecord, "url" | "events" | "description" | "disabledAt" | "failingSince">
>;

/** Attempts kept on a delivery: the log shows the latest, and the document stays small. */
const ATTEMPTS_KEPT = 20;

/** Every database call on webhook endpoints and their deliveries. */
export class WebhookRepository {
  constructor(
    private readonly endpoints: WebhookEndpointModel,
    private readonly deliveries: WebhookDeliveryModel,
  ) {}

  page(window: PageWindow): Promise<FoundPage<WebhookEndpointRecord>> {
    return findPage(this.endpoints, {}, { createdAt: -1, _id: -1 }, window);
  }

  findEndpoint(id: string): Promise<WebhookEndpointRecord | null> {
    return this.endpoints.findById(id).lean<WebhookEndpointRecord>().exec();
  }

  /** The endpoints a change of `type` goes to now. */
  subscribers(type: WebhookEventType): Promise<WebhookEndpointRecord[]> {
    return this.endpoints
      .find({ events: type, disabledAt: null })
      .lean<WebhookEndpointRecord[]>()
      .exec();
  }

  async insertEndpoint(
    record: Omit<WebhookEndpointRecord, "createdAt" | "updatedAt">,
  ): Promise<WebhookEndpointRecord> {
    return (await this.endpoints.create(record)).toObject();
  }

  updateEndpoint(id: string, changes: EndpointChanges): Promise<WebhookEndpointRecord | null> {
    return this.endpoints
      .findByIdAndUpdate(id, { $set: changes }, { returnDocument: "after", runValidators: true })
      .lean<WebhookEndpointRecord>()
      .exec();
  }

  /** The endpoint and its delivery log; null when there was none. */
  async deleteEndpoint(id: string): Promise<WebhookEndpointRecord | null> {
    const deleted = await this.endpoints
      .findOneAndDelete({ _id: id })
      .lean<WebhookEndpointRecord>();
    if (deleted) await this.deliveries.deleteMany({ endpointId: id }).exec();
    return deleted;
  }

  /** Marks the first failure since the last success; a later failure keeps the first. */
  async markFailing(id: string, at: Date): Promise<void> {
    await this.endpoints.updateOne({ _id: id, failingSince: null }, { $set: { failingSince: at } });
  }

  async markAnswering(id: string): Promise<void> {
    await this.endpoints.updateOne({ _id: id }, { $set: { failingSince: null } });
  }

  /**
   * Disables an endpoint failing since `before` or earlier; the one replica whose write
   * changed it gets it back (and mails its owner), every other gets null.
   */
  disableFailing(id: string, before: Date, at: Date): Promise<WebhookEndpointRecord | null> {
    return this.endpoints
      .findOneAndUpdate(
        { _id: id, disabledAt: null, failingSince: atMost(before) },
        { $set: { disabledAt: at } },
        { returnDocument: "after" },
      )
      .lean<WebhookEndpointRecord>()
      .exec();
  }

  async forgetOwner(ownerId: string): Promise<void> {
    await this.endpoints.updateMany({ ownerId }, { $set: { ownerId: null } });
  }

  ownedBy(ownerId: string): Promise<WebhookEndpointRecord[]> {
    return this.endpoints.find({ ownerId }).lean<WebhookEndpointRecord[]>().exec();
  }

  /** One write for a change's deliveries, all of them or (on an error) none it reports. */
  async insertDeliveries(records: Omit<WebhookDeliveryRecord, "createdAt" | "updatedAt">[]) {
    if (records.length > 0) await this.deliveries.insertMany(records, { ordered: true });
  }

  deliveryPage(endpointId: string, window: PageWindow): Promise<FoundPage<WebhookDeliveryRecord>> {
    return findPage(this.deliveries, { endpointId }, { createdAt: -1, _id: -1 }, window);
  }

  findDelivery(endpointId: string, id: string): Promise<WebhookDeliveryRecord | null> {
    return this.deliveries.findOne({ _id: id, endpointId }).lean<WebhookDeliveryRecord>().exec();
  }

  /**
   * Takes the pending delivery due first: moving its due time past `leaseUntil` is the claim,
   * so of several replicas one sends it, and it is taken again if that one dies mid-send.
   */
  claimDue(now: Date, leaseUntil: Date): Promise<WebhookDeliveryRecord | null> {
    return this.deliveries
      .findOneAndUpdate(
        { status: DeliveryStatus.PENDING, nextAttemptAt: atMost(now) },
        { $set: { nextAttemptAt: leaseUntil } },
        { sort: { nextAttemptAt: 1 }, returnDocument: "after" },
      )
      .lean<WebhookDeliveryRecord>()
      .exec();
  }

  /** Records an attempt and what follows it; conditional on the claim still being this one. */
  async settle(
    claimed: WebhookDeliveryRecord,
    attempt: DeliveryAttempt,
    next: { status: DeliveryStatus; nextAttemptAt: Date },
  ): Promise<void> {
    await this.deliveries.updateOne(
      { _id: claimed._id, status: DeliveryStatus.PENDING, nextAttemptAt: claimed.nextAttemptAt },
      {
        $set: {
          status: next.status,
          nextAttemptAt: next.nextAttemptAt,
          ...(next.status === DeliveryStatus.DELIVERED ? { deliveredAt: attempt.at } : {}),
        },
        $push: { attempts: { $each: [attempt], $slice: -ATTEMPTS_KEPT } },
        $inc: { attemptCount: 1 },
      },
    );
  }

  /** Sends a delivery again (same id) at the next look. */
  retry(endpointId: string, id: string, now: Date): Promise<WebhookDeliveryRecord | null> {
    return this.deliveries
      .findOneAndUpdate(
        { _id: id, endpointId },
        { $set: { status: DeliveryStatus.PENDING, nextAttemptAt: now } },
        { returnDocument: "after" },
      )
      .lean<WebhookDeliveryRecord>()
      .exec();
  }

  /** What was or will be sent about a member keeps only its id. */
  async reduceToId(memberId: string): Promise<void> {
    await this.deliveries.updateMany({ memberId }, { $set: { data: { id: memberId } } });
  }
}
