import { Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { ok } from "../../graphql/envelopes";
import { Rest } from "../../graphql/rest-route";
import { NotAudited } from "../audit/audited-operations";
import { CurrentCaller, type Caller } from "../auth/caller";
import { IdGenerationPayload } from "./credential.type";

@Resolver()
export class CredentialResolver {
  @Rest("GET", "/members/current/id-generation", { tag: "Credentials" })
  @NotAudited("the caller's own credentials")
  @Authorized()
  @Query(() => IdGenerationPayload, {
    description:
      "The caller's uniqueId and rendered ID card, certificate and QR code (null until rendered).",
  })
  async currentIdGeneration(@CurrentCaller() caller: Caller, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.idCredentials.currentOf(caller.id), "ID generation");
  }

  @Rest("PUT", "/members/current/id-generation", { tag: "Credentials", errors: [409], example: {} })
  @NotAudited("the caller renders their own credentials")
  @Authorized()
  @Mutation(() => IdGenerationPayload, {
    description:
      "Render the QR code, certificate and ID card once the payment is verified; a new render replaces the old.",
  })
  async generateIdCredentials(@CurrentCaller() caller: Caller, @Ctx() ctx: RequestContext) {
    return ok(
      await ctx.services.idCredentials.generate(caller.id),
      "ID card and certificate generated",
    );
  }
}
