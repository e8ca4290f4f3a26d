import { uuidv7 } from "../../db/uuid";
import type { FieldCipher } from "../../db/field-cipher";
import type { Logger } from "../../logger";
import type { ChangeData, ChangeFeed, WebhookEventType } from "./change-feed";
import { DISABLE_AFTER_MS, nextAttemptAfter } from "./retry-rule";
import { DeliveryStatus, type WebhookDeliveryRecord } from "./webhook.model";
import type { WebhookRepository } from "./webhook.repository";
import type { SendResult, SignedMessage } from "./webhook-sender";

export const SECRET_FIELD = "webhookSecret";
/** The scheduler's job that sends what is due. */
export const DISPATCH_JOB = "webhooks.dispatch";
/** The same run at each look of the scheduler, for what a process that died left behind. */
export const SWEEP_JOB = `${DISPATCH_JOB}.sweep`;
/** How long an attempt may be under way before another replica may take the delivery again. */
const LEASE_MS = 60_000;
/** Deliveries one run sends at most; a run queued for what is left goes on at the next look. */
const PER_RUN = 200;
/** Attempts one run makes at once. */
const PARALLEL = 4;

export interface DispatcherDeps {
  repository: WebhookRepository;
  cipher: FieldCipher;
  log: Logger;
  retryBaseSeconds: number;
  allowPrivate: boolean;
  /** Queues a run of DISPATCH_JOB at `at` (now when absent), for whichever replica looks first. */
  enqueue: (at?: Date) => Promise<void>;
  send: (url: string, message: SignedMessage, allowPrivate: boolean) => Promise<SendResult>;
  /** Tells an endpoint's owner it was disabled. */
  disabled: (ownerId: string, endpoint: { id: string; url: string }) => Promise<void>;
  now?: () => Date;
}

/**
 * The outbox of changes and its sender. A change is stored as one delivery per endpoint that
 * asked for its type, in one write, before the change's request answers; a run of the
 * scheduler's job is queued for it, and a run at each look of the scheduler catches what a
 * process that died before queueing left behind. A run claims each due delivery by one
 * conditional write, so of several replicas one sends it.
 */
export class WebhookDispatcher implements ChangeFeed {
  private readonly now: () => Date;

  constructor(private readonly deps: DispatcherDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async record(type: WebhookEventType, data: ChangeData): Promise<void> {
    // What was or will be sent about an erased member keeps its id alone.
    if (type === "member.erased") await this.deps.repository.reduceToId(data.id);
    const endpoints = await this.deps.repository.subscribers(type);
    if (endpoints.length === 0) return;
    const occurredAt = this.now();
    const memberId = type.startsWith("member.") ? data.id : null;
    await this.deps.repository.insertDeliveries(
      endpoints.map((endpoint) => ({
        _id: uuidv7(),
        endpointId: endpoint._id,
        type,
        occurredAt,
        // An erased member's change carries the id alone, whatever the caller sent.
        data: type === "member.erased" ? { id: data.id } : data,
        memberId,
        status: DeliveryStatus.PENDING,
        nextAttemptAt: occurredAt,
        attempts: [],
        attemptCount: 0,
        deliveredAt: null,
      })),
    );
    // Stored already: if this queueing fails, the run at the next look sends them.
    await this.deps.enqueue().catch((error: unknown) => {
      this.deps.log.warn({ err: error }, "webhook run not queued; the next look sends it");
    });
  }

  /** Sends what is due, a few at a time, until nothing is or the run's share is done. */
  async dispatch(): Promise<void> {
    let budget = PER_RUN;
    const worker = async () => {
      while (budget > 0) {
        budget -= 1;
        const now = this.now();
        const claimed = await this.deps.repository.claimDue(
          now,
          new Date(now.getTime() + LEASE_MS),
        );
        if (!claimed) return;
        await this.attempt(claimed);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    if (budget <= 0) await this.deps.enqueue();
  }

  /** The body a delivery sends: its type, when the change happened, its public data. */
  static bodyOf(delivery: Pick<WebhookDeliveryRecord, "type" | "occurredAt" | "data">): string {
    return JSON.stringify({
      type: delivery.type,
      timestamp: delivery.occurredAt.toISOString(),
      data: delivery.data,
    });
  }

  private async attempt(delivery: WebhookDeliveryRecord): Promise<void> {
    const { repository, cipher } = this.deps;
    const endpoint = await repository.findEndpoint(delivery.endpointId);
    const at = this.now();
    if (!endpoint || endpoint.disabledAt) {
      const error = endpoint ? "endpoint disabled" : "endpoint deleted";
      await repository.settle(
        delivery,
        { at, statusCode: null, error },
        { status: DeliveryStatus.FAILED, nextAttemptAt: at },
      );
      return;
    }
    const result = await this.deps.send(
      endpoint.url,
      {
        id: delivery._id,
        body: WebhookDispatcher.bodyOf(delivery),
        secret: cipher.open(endpoint.secret, SECRET_FIELD),
      },
      this.deps.allowPrivate,
    );
    const attempt = { at, statusCode: result.statusCode, error: result.error };
    if (result.error === null) {
      await repository.settle(delivery, attempt, {
        status: DeliveryStatus.DELIVERED,
        nextAttemptAt: at,
      });
      if (endpoint.failingSince) await repository.markAnswering(endpoint._id);
      return;
    }
    const retryAt = nextAttemptAfter(
      delivery.occurredAt,
      delivery.attemptCount + 1,
      at,
      this.deps.retryBaseSeconds,
    );
    await repository.settle(
      delivery,
      attempt,
      retryAt
        ? { status: DeliveryStatus.PENDING, nextAttemptAt: retryAt }
        : { status: DeliveryStatus.FAILED, nextAttemptAt: at },
    );
    if (retryAt) await this.deps.enqueue(retryAt);
    await this.failing(endpoint._id, at);
  }

  private async failing(endpointId: string, at: Date): Promise<void> {
    const { repository } = this.deps;
    await repository.markFailing(endpointId, at);
    const cutoff = new Date(at.getTime() - DISABLE_AFTER_MS);
    const disabled = await repository.disableFailing(endpointId, cutoff, at);
    if (!disabled) return;
    this.deps.log.warn({ endpointId }, "webhook endpoint disabled after 5 days of failures");
    if (disabled.ownerId)
      await this.deps.disabled(disabled.ownerId, { id: disabled._id, url: disabled.url });
  }
}
