import { randomBytes } from "node:crypto";
import type { FieldCipher } from "../../db/field-cipher";
import { uuidv7 } from "../../db/uuid";
import { ConflictError, NotFoundError, ValidationError } from "../../errors/app-errors";
import { pageOf } from "../page-result";
import type { PageWindowArgs } from "../../graphql/paging";
import { isWebhookEvent, type WebhookEventType } from "./change-feed";
import { SECRET_FIELD, WebhookDispatcher } from "./webhook-dispatcher";
import type { CreateWebhookArgs, UpdateWebhookArgs } from "./webhook.input";
import {
  DeliveryStatus,
  type WebhookDeliveryRecord,
  type WebhookEndpointRecord,
} from "./webhook.model";
import type { EndpointChanges, WebhookRepository } from "./webhook.repository";
import type { WebhookDelivery, WebhookEndpoint } from "./webhook.type";

export interface WebhookServiceDeps {
  repository: WebhookRepository;
  cipher: FieldCipher;
  /** Why a URL may not receive webhooks, or null (webhook-target.ts). */
  targetProblem: (url: string) => Promise<string | null>;
  /** Queues a run of the sender now (a manual retry). */
  enqueue: () => Promise<void>;
  now?: () => Date;
}

/** Administrators' endpoints and their delivery logs. Secrets are shown once, at creation. */
export class WebhookService {
  private readonly now: () => Date;

  constructor(private readonly deps: WebhookServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async create(
    ownerId: string,
    args: CreateWebhookArgs,
  ): Promise<WebhookEndpoint & { secret: string }> {
    const url = await this.checkedUrl(args.url);
    const events = eventsOf(args.events);
    // Standard Webhooks' secret form: whsec_ and the base64 of 24 random bytes.
    const secret = `whsec_${randomBytes(24).toString("base64")}`;
    const record = await this.deps.repository.insertEndpoint({
      _id: uuidv7(),
      url,
      events,
      description: args.description?.trim() ?? "",
      secret: this.deps.cipher.seal(secret, SECRET_FIELD),
      ownerId,
      disabledAt: null,
      failingSince: null,
    });
    return { ...endpointOf(record), secret };
  }

  async list(args: PageWindowArgs) {
    const found = await this.deps.repository.page(args);
    return pageOf(args, found.records.map(endpointOf), found.total);
  }

  async get(id: string): Promise<WebhookEndpoint> {
    return endpointOf(await this.found(id));
  }

  async update(args: UpdateWebhookArgs): Promise<WebhookEndpoint> {
    await this.found(args.id);
    const changes: EndpointChanges = {};
    if (args.url !== undefined && args.url !== null) changes.url = await this.checkedUrl(args.url);
    if (args.events !== undefined && args.events !== null) changes.events = eventsOf(args.events);
    if (args.description !== undefined) changes.description = args.description?.trim() ?? "";
    // Enabling again starts the count of failing days afresh.
    if (args.enabled === true) Object.assign(changes, { disabledAt: null, failingSince: null });
    if (args.enabled === false) changes.disabledAt = this.now();
    const updated = await this.deps.repository.updateEndpoint(args.id, changes);
    if (!updated) throw notFound();
    return endpointOf(updated);
  }

  async delete(id: string): Promise<void> {
    if (!(await this.deps.repository.deleteEndpoint(id))) throw notFound();
  }

  async deliveries(endpointId: string, args: PageWindowArgs) {
    await this.found(endpointId);
    const found = await this.deps.repository.deliveryPage(endpointId, args);
    return pageOf(args, found.records.map(deliveryOf), found.total);
  }

  /** Sends a delivery again, with its id, at the scheduler's next look. */
  async retry(endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
    const endpoint = await this.found(endpointId);
    if (endpoint.disabledAt) throw new ConflictError("The endpoint is disabled; enable it first");
    const delivery = await this.deps.repository.retry(endpointId, deliveryId, this.now());
    if (!delivery) throw new NotFoundError("No delivery of this endpoint has this id");
    await this.deps.enqueue();
    return deliveryOf(delivery);
  }

  private async found(id: string): Promise<WebhookEndpointRecord> {
    const record = await this.deps.repository.findEndpoint(id);
    if (!record) throw notFound();
    return record;
  }

  private async checkedUrl(raw: string): Promise<string> {
    const url = raw.trim();
    const problem = await this.deps.targetProblem(url);
    if (problem) throw ValidationError.field("url", problem);
    return url;
  }
}

const notFound = () => new NotFoundError("No webhook endpoint has this id");

function eventsOf(events: string[]): WebhookEventType[] {
  const unknown = events.filter((event) => !isWebhookEvent(event));
  if (unknown.length > 0)
    throw ValidationError.field("events", `Unknown event type: ${unknown.join(", ")}`);
  if (events.length === 0) throw ValidationError.field("events", "Name at least one event type");
  return [...new Set(events)] as WebhookEventType[];
}

function endpointOf(record: WebhookEndpointRecord): WebhookEndpoint {
  return {
    id: record._id,
    url: record.url,
    events: record.events,
    description: record.description,
    enabled: record.disabledAt === null,
    disabledAt: record.disabledAt,
    failingSince: record.failingSince,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

function deliveryOf(record: WebhookDeliveryRecord): WebhookDelivery {
  return {
    id: record._id,
    endpointId: record.endpointId,
    type: record.type,
    status: record.status,
    body: WebhookDispatcher.bodyOf(record),
    attemptCount: record.attemptCount,
    attempts: record.attempts,
    nextAttemptAt: record.status === DeliveryStatus.PENDING ? record.nextAttemptAt : null,
    deliveredAt: record.deliveredAt,
    createdAt: record.createdAt,
  };
}
