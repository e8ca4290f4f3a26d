import type { FieldCipher } from "../../db/field-cipher";
import type { Mailer } from "../../mail/mailer";
import { noticeMail } from "../../mail/templates";
import type { ModuleBase, ModuleParts } from "../module";
import type { PersonalDataEraser } from "../privacy/personal-data";
import { DISPATCH_JOB, SWEEP_JOB, WebhookDispatcher } from "./webhook-dispatcher";
import { sendSigned } from "./webhook-sender";
import { targetProblem } from "./webhook-target";
import { createWebhookModels } from "./webhook.model";
import { WebhookRepository } from "./webhook.repository";
import { WebhookService } from "./webhook.service";

export interface WebhooksModuleDeps {
  /** The address of an endpoint's owner, to tell them it was disabled (users module). */
  emailOf: (userId: string) => Promise<string | null>;
}

export interface WebhooksModuleOptions extends ModuleBase {
  cipher: FieldCipher;
  mailer: Mailer;
  deps: () => WebhooksModuleDeps;
}

/** Signed webhooks to the organisation's site (Standard Webhooks), sent by the job scheduler. */
export function createWebhooksModule(options: WebhooksModuleOptions) {
  const { connection, config, log, scheduler, cipher, mailer, deps } = options;
  const models = createWebhookModels(connection);
  const repository = new WebhookRepository(models.endpoints, models.deliveries);
  const enqueue = (at?: Date) => scheduler.enqueue(DISPATCH_JOB, {}, at);
  const allowPrivate = config.webhooksAllowPrivate && config.nodeEnv !== "production";
  const dispatcher = new WebhookDispatcher({
    repository,
    cipher,
    log,
    retryBaseSeconds: config.webhookRetryBaseSeconds,
    allowPrivate,
    enqueue,
    send: sendSigned,
    disabled: async (ownerId, endpoint) => {
      const to = await deps().emailOf(ownerId);
      if (!to) return;
      mailer.send(
        noticeMail(to, "A webhook endpoint was disabled", [
          `Deliveries to ${endpoint.url} have failed for 5 days, so it was disabled.`,
          "Nothing is sent to it until an administrator enables it again (PUT /webhooks/{id} " +
            `with enabled: true; id ${endpoint.id}). Its delivery log shows each failure.`,
        ]),
      );
    },
  });
  // Queued per change and per retry; also at each look, for what a dead process left behind.
  scheduler.queue({ name: DISPATCH_JOB, run: () => dispatcher.dispatch() });
  scheduler.every({ name: SWEEP_JOB, run: () => dispatcher.dispatch() });
  const webhooks = new WebhookService({
    repository,
    cipher,
    targetProblem: (url) => targetProblem(url, allowPrivate),
    enqueue: () => enqueue(),
  });
  /**
   * Erasure: the endpoints an erased administrator registered stay, without an owner. What was
   * sent about a member is reduced to its id by the member.erased change (the dispatcher).
   */
  const personalData = {
    erase: ({ id }) => repository.forgetOwner(id),
    exportOf: async (userId: string) =>
      (await repository.ownedBy(userId)).map((endpoint) => ({
        id: endpoint._id,
        url: endpoint.url,
        createdAt: endpoint.createdAt,
      })),
  } satisfies PersonalDataEraser & Record<string, unknown>;
  return {
    services: { webhooks },
    changes: dispatcher,
    personalData,
    models: [models.endpoints, models.deliveries],
  } satisfies ModuleParts & Record<string, unknown>;
}
