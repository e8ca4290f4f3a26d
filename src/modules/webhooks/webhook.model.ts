import { Schema, type Connection, type Model } from "mongoose";
import { uuidv7 } from "../../db/uuid";
import { WEBHOOK_EVENTS, type ChangeData, type WebhookEventType } from "./change-feed";

export interface WebhookEndpointRecord {
  _id: string;
  url: string;
  events: WebhookEventType[];
  description: string;
  /** The signing secret, sealed with the data key (src/db/field-cipher.ts). */
  secret: string;
  /** The administrator who registered it: told when it is disabled; null once erased. */
  ownerId: string | null;
  /** Set when deliveries failed for 5 days, or by an administrator; nothing is sent meanwhile. */
  disabledAt: Date | null;
  /** The first failure since the last success; null while the endpoint answers. */
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export enum DeliveryStatus {
  PENDING = "PENDING",
  DELIVERED = "DELIVERED",
  FAILED = "FAILED",
}

export interface DeliveryAttempt {
  at: Date;
  /** The receiver's status, or null when it did not answer. */
  statusCode: number | null;
  /** Why it failed, in a few words; null on success. */
  error: string | null;
}

export interface WebhookDeliveryRecord {
  /** Also the message's webhook-id, the same on every retry. */
  _id: string;
  endpointId: string;
  type: WebhookEventType;
  /** When the change happened: the body's `timestamp`. */
  occurredAt: Date;
  data: ChangeData;
  /** The member a member.* change is about: erasure reduces its data to the id. */
  memberId: string | null;
  status: DeliveryStatus;
  /** When the next attempt is due (also the claim of an attempt under way). */
  nextAttemptAt: Date;
  attempts: DeliveryAttempt[];
  attemptCount: number;
  deliveredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const endpointSchema = new Schema<WebhookEndpointRecord>(
  {
    _id: { type: String, default: () => uuidv7() },
    url: { type: String, required: true },
    events: { type: [String], enum: [...WEBHOOK_EVENTS], required: true },
    description: { type: String, default: "" },
    secret: { type: String, required: true },
    ownerId: { type: String, default: null },
    disabledAt: { type: Date, default: null },
    failingSince: { type: Date, default: null },
  },
  { timestamps: true, versionKey: false },
);
// The administrators' list, newest first.
endpointSchema.index({ createdAt: -1, _id: -1 });
// The endpoints a change goes to: those asking for its type and not disabled.
endpointSchema.index({ events: 1, disabledAt: 1 });
// Erasure of an administrator's account forgets them as owner.
endpointSchema.index({ ownerId: 1 });

const attemptSchema = new Schema<DeliveryAttempt>(
  {
    at: { type: Date, required: true },
    statusCode: { type: Number, default: null },
    error: { type: String, default: null },
  },
  { _id: false },
);

const deliverySchema = new Schema<WebhookDeliveryRecord>(
  {
    _id: { type: String, default: () => uuidv7() },
    endpointId: { type: String, required: true },
    type: { type: String, enum: [...WEBHOOK_EVENTS], required: true },
    occurredAt: { type: Date, required: true },
    data: { type: Schema.Types.Mixed, required: true },
    memberId: { type: String, default: null },
    status: { type: String, enum: Object.values(DeliveryStatus), required: true },
    nextAttemptAt: { type: Date, required: true },
    attempts: { type: [attemptSchema], default: [] },
    attemptCount: { type: Number, default: 0 },
    deliveredAt: { type: Date, default: null },
  },
  { timestamps: true, versionKey: false, minimize: false },
);
// The dispatcher's claim: the pending delivery due first.
deliverySchema.index({ status: 1, nextAttemptAt: 1 });
// An endpoint's delivery log, newest first; also its deliveries when it is deleted.
deliverySchema.index({ endpointId: 1, createdAt: -1, _id: -1 });
// Erasure: what was sent about a member.
deliverySchema.index({ memberId: 1 });

export type WebhookEndpointModel = Model<WebhookEndpointRecord>;
export type WebhookDeliveryModel = Model<WebhookDeliveryRecord>;

export function createWebhookModels(connection: Connection) {
  return {
    endpoints: connection.model<WebhookEndpointRecord>(
      "WebhookEndpoint",
      endpointSchema,
      "webhook_endpoints",
    ),
    deliveries: connection.model<WebhookDeliveryRecord>(
      "WebhookDelivery",
      deliverySchema,
      "webhook_deliveries",
    ),
  };
}
