import { UUIDResolver } from "graphql-scalars";
import { Arg, Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { Acknowledgement, acknowledged, created, ok, paged } from "../../graphql/envelopes";
import { Rest } from "../../graphql/rest-route";
import { Audit, NotAudited, byArg, createdId } from "../audit/audited-operations";
import { CurrentCaller, type Caller } from "../auth/caller";
import { Role } from "../users/role";
import { CreateEventArgs, EventListArgs, UpdateEventArgs } from "./event.input";
import { EventPage, EventPayload, PublicEventPage, PublicEventPayload } from "./event.type";

const EXAMPLE = {
  name: "Chaplains' Annual Conference",
  category: "CONFERENCE",
  type: "ONSITE",
  location: "Cebu City Sports Center",
  description: "Two days of workshops and worship",
  startsAt: "2027-03-12T01:00:00.000Z",
  endsAt: "2027-03-13T09:00:00.000Z",
};

@Resolver()
export class EventResolver {
  @Rest("GET", "/events/public", { tag: "Events", publicCache: { sources: ["events", "files"] } })
  @NotAudited("the organisation's public events")
  @Query(() => PublicEventPage, {
    description: "PUBLIC events, without meeting ids and passwords. No token needed.",
  })
  async publicEvents(@Args() args: EventListArgs, @Ctx() ctx: RequestContext) {
    return paged(await ctx.services.events.listPublic(args), "Events");
  }

  @Rest("GET", "/events/public/:id", {
    tag: "Events",
    publicCache: { sources: ["events", "files"] },
  })
  @NotAudited("the organisation's public events")
  @Query(() => PublicEventPayload, {
    description: "One PUBLIC event, without its meeting id and password. No token needed.",
  })
  async publicEvent(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.events.getPublic(id), "Event");
  }

  @Rest("GET", "/events/:id", { tag: "Events" })
  @NotAudited("an event of the organisation, shown to every member")
  @Authorized()
  @Query(() => EventPayload, { description: "One event, public or not, with how to join." })
  async event(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.events.get(id), "Event");
  }

  @Rest("GET", "/events", { tag: "Events" })
  @NotAudited("the organisation's events")
  @Authorized(Role.ADMIN)
  @Query(() => EventPage, { description: "Every event, with how to join. Admin only." })
  async events(@Args() args: EventListArgs, @Ctx() ctx: RequestContext) {
    return paged(await ctx.services.events.list(args), "Events");
  }

  @Rest("POST", "/events/create", { tag: "Events", status: 201, example: EXAMPLE })
  @Audit({ action: "event.create", targetType: "event", target: createdId })
  @Authorized(Role.ADMIN)
  @Mutation(() => EventPayload, { description: "Create an event. Admin only." })
  async createEvent(
    @Args() args: CreateEventArgs,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ) {
    return created(await ctx.services.events.create(caller.id, args), "Event created");
  }

  @Rest("PUT", "/events/:id", {
    tag: "Events",
    summary: "Update an event",
    example: { status: "CANCELLED" },
  })
  @Audit({ action: "event.update", targetType: "event", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => EventPayload, {
    description: "Partial update; cancel with status CANCELLED. Admin only.",
  })
  async updateEvent(
    @Args() args: UpdateEventArgs,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.events.update(caller.id, args), "Event updated");
  }

  @Rest("DELETE", "/events/:id", { tag: "Events", status: 204 })
  @Audit({ action: "event.delete", targetType: "event", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => Acknowledgement, { description: "Delete an event. Admin only." })
  async deleteEvent(@Arg("id", () => UUIDResolver) id: string, @Ctx() ctx: RequestContext) {
    await ctx.services.events.delete(id);
    return acknowledged("Event deleted");
  }
}
