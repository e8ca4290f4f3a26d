import { UUIDResolver } from "graphql-scalars";
import { Arg, Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { Acknowledgement, acknowledged, created, ok, paged } from "../../graphql/envelopes";
import { PageWindowArgs } from "../../graphql/paging";
import { Rest } from "../../graphql/rest-route";
import { Audit, NotAudited, byArg, createdId } from "../audit/audited-operations";
import { CurrentCaller, type Caller } from "../auth/caller";
import { Role } from "../users/role";
import { CreateWebhookArgs, UpdateWebhookArgs, WebhookDeliveriesArgs } from "./webhook.input";
import {
  WebhookDeliveryPage,
  WebhookDeliveryPayload,
  WebhookEndpointCreatedPayload,
  WebhookEndpointPage,
  WebhookEndpointPayload,
} from "./webhook.type";

@Resolver()
export class WebhookResolver {
  @Rest("POST", "/webhooks", {
    tag: "Webhooks",
    status: 201,
    example: {
      url: "https://www.example.org/api/revalidate",
      events: ["news.published", "news.changed", "news.deleted"],
      description: "The organisation's site",
    },
  })
  @Audit({ action: "webhook.create", targetType: "webhook", target: createdId })
  @Authorized(Role.ADMIN)
  @Mutation(() => WebhookEndpointCreatedPayload, {
    description:
      "Register an endpoint (https, public address) for some event types; the answer shows its " +
      "signing secret, this once. Admin only.",
  })
  async createWebhook(
    @Args() args: CreateWebhookArgs,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ) {
    return created(await ctx.services.webhooks.create(caller.id, args), "Webhook created");
  }

  @Rest("GET", "/webhooks", { tag: "Webhooks" })
  @NotAudited("the organisation's own integration settings")
  @Authorized(Role.ADMIN)
  @Query(() => WebhookEndpointPage, { description: "Every endpoint, newest first. Admin only." })
  async webhooks(@Args() args: PageWindowArgs, @Ctx() ctx: RequestContext) {
    return paged(await ctx.services.webhooks.list(args), "Webhooks");
  }

  @Rest("GET", "/webhooks/:id", { tag: "Webhooks" })
  @NotAudited("the organisation's own integration settings")
  @Authorized(Role.ADMIN)
  @Query(() => WebhookEndpointPayload, { description: "One endpoint (no secret). Admin only." })
  async webhook(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.webhooks.get(id), "Webhook");
  }

  @Rest("PUT", "/webhooks/:id", {
    tag: "Webhooks",
    example: { events: ["member.approved", "directory.changed"], enabled: true },
  })
  @Audit({ action: "webhook.update", targetType: "webhook", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => WebhookEndpointPayload, {
    description: "Change an endpoint's URL, events or description, or enable it again. Admin only.",
  })
  async updateWebhook(@Args() args: UpdateWebhookArgs, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.webhooks.update(args), "Webhook updated");
  }

  @Rest("DELETE", "/webhooks/:id", { tag: "Webhooks", status: 204 })
  @Audit({ action: "webhook.delete", targetType: "webhook", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => Acknowledgement, {
    description: "Delete an endpoint and its delivery log. Admin only.",
  })
  async deleteWebhook(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    await ctx.services.webhooks.delete(id);
    return acknowledged("Webhook deleted");
  }

  @Rest("GET", "/webhooks/:id/deliveries", { tag: "Webhooks" })
  @NotAudited("the organisation's own integration log; public fields only")
  @Authorized(Role.ADMIN)
  @Query(() => WebhookDeliveryPage, {
    description: "An endpoint's deliveries, newest first, with their attempts. Admin only.",
  })
  async webhookDeliveries(@Args() args: WebhookDeliveriesArgs, @Ctx() ctx: RequestContext) {
    const page = await ctx.services.webhooks.deliveries(args.id, args);
    return paged(page, "Deliveries");
  }

  @Rest("POST", "/webhooks/:id/deliveries/:deliveryId/retry", { tag: "Webhooks" })
  @Audit({ action: "webhook.retry", targetType: "webhook", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => WebhookDeliveryPayload, {
    description:
      "Send a delivery again, with the same webhook-id, at the scheduler's next look. Admin only.",
  })
  async retryWebhookDelivery(
    @Arg("id", () => UUIDResolver) id: string,
    @Arg("deliveryId", () => UUIDResolver) deliveryId: string,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.webhooks.retry(id, deliveryId), "Delivery queued");
  }
}
