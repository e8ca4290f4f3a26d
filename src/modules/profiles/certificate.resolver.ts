import { UUIDResolver } from "graphql-scalars";
import { Arg, Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { Acknowledgement, acknowledged, created, ok } from "../../graphql/envelopes";
import { EXAMPLE_FILE_ID, Rest } from "../../graphql/rest-route";
import { Audit, NotAudited, byArg, createdId } from "../audit/audited-operations";
import { CurrentCaller, type Caller } from "../auth/caller";
import { CreateCertificateArgs, UpdateCertificateArgs } from "./certificate.input";
import { MemberCertificateList, MemberCertificatePayload } from "./certificate.type";

const TAG = "Public profiles";

/** The certificates a member shows on the public page (owner edits). */
@Resolver()
export class CertificateResolver {
  @Rest("GET", "/members/current/certificates", { tag: TAG })
  @NotAudited("the caller's own certificates")
  @Authorized()
  @Query(() => MemberCertificateList, {
    description: "The caller's certificates (current record), newest received first.",
  })
  async currentCertificates(@CurrentCaller() caller: Caller, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.certificates.listOwn(caller.id), "Your certificates");
  }

  @Rest("POST", "/members/current/certificates", {
    tag: TAG,
    status: 201,
    errors: [404, 409],
    example: {
      title: "Basic Chaplaincy Course",
      certificateUrl: EXAMPLE_FILE_ID,
      issuedAt: "2025-03-01T00:00:00.000Z",
    },
  })
  @Audit({ action: "member.certificate.create", targetType: "certificate", target: createdId })
  @Authorized()
  @Mutation(() => MemberCertificatePayload, {
    description:
      "Add a certificate to the caller's public page: a CERTIFICATE file of theirs; its credentialId is issued here. APPROVED records only.",
  })
  async createCertificate(
    @CurrentCaller() caller: Caller,
    @Args() args: CreateCertificateArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return created(await ctx.services.certificates.create(caller.id, args), "Certificate added");
  }

  @Rest("PUT", "/members/current/certificates/:id", {
    tag: TAG,
    errors: [404, 409],
    example: { title: "Critical Incident Stress Management", issuedAt: "2025-06-20T00:00:00.000Z" },
  })
  @Audit({ action: "member.certificate.update", targetType: "certificate", target: byArg("id") })
  @Authorized()
  @Mutation(() => MemberCertificatePayload, {
    description: "Change one of the caller's certificates; another member's id is a 404.",
  })
  async updateCertificate(
    @CurrentCaller() caller: Caller,
    @Args() args: UpdateCertificateArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.certificates.update(caller.id, args), "Certificate updated");
  }

  @Rest("DELETE", "/members/current/certificates/:id", {
    tag: TAG,
    status: 204,
    errors: [404, 409],
  })
  @Audit({ action: "member.certificate.delete", targetType: "certificate", target: byArg("id") })
  @Authorized()
  @Mutation(() => Acknowledgement, {
    description: "Remove one of the caller's certificates; another member's id is a 404.",
  })
  async deleteCertificate(
    @CurrentCaller() caller: Caller,
    @Arg("id", () => UUIDResolver) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    await ctx.services.certificates.delete(caller.id, id);
    return acknowledged("Certificate removed");
  }
}
