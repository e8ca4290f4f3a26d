import { Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { Authorized } from "../../graphql/access";
import type { RequestContext } from "../../graphql/context";
import { ok, paged } from "../../graphql/envelopes";
import { EXAMPLE_FILE_ID, Rest } from "../../graphql/rest-route";
import { paymentWords } from "../../mail/status-words";
import { Audit, NotAudited, byArg, noTarget } from "../audit/audited-operations";
import { CurrentCaller, type Caller } from "../auth/caller";
import { Role } from "../users/role";
import { DecidePaymentArgs, PaymentListArgs, SavePaymentArgs } from "./payment.input";
import { MembershipPaymentPayload, SubmittedPaymentPage } from "./payment.type";

@Resolver()
export class PaymentResolver {
  @Rest("GET", "/members/current/payment-checkout", { tag: "Onboarding" })
  @NotAudited("the caller's own payment")
  @Authorized()
  @Query(() => MembershipPaymentPayload, {
    description: "The caller's membership fee; null until submitted.",
  })
  async currentPayment(@CurrentCaller() caller: Caller, @Ctx() ctx: RequestContext) {
    return ok(await ctx.services.onboarding.payments.current(caller), "Your payment");
  }

  @Rest("PUT", "/members/current/payment-checkout", {
    tag: "Onboarding",
    errors: [409],
    example: { paymentMethod: "E_WALLET", proofFileId: EXAMPLE_FILE_ID, isPromissoryNote: false },
  })
  @NotAudited("the caller's own payment")
  @Authorized()
  @Mutation(() => MembershipPaymentPayload, {
    description:
      "Submit the fee: a proof (PAYMENT_PROOF file) unless CASH or a promissory note (PROMISSORY_NOTE file).",
  })
  async savePayment(
    @CurrentCaller() caller: Caller,
    @Args() args: SavePaymentArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return ok(await ctx.services.onboarding.payments.save(caller, args), "Payment submitted");
  }

  @Rest("PATCH", "/members/:id/payment", {
    tag: "Onboarding",
    errors: [409],
    example: { status: "VERIFIED" },
  })
  @Audit({ action: "payment.decide", targetType: "member", target: byArg("id") })
  @Authorized(Role.ADMIN)
  @Mutation(() => MembershipPaymentPayload, {
    description: "Verify or reject a submitted payment; the member is mailed. Admin only.",
  })
  async decidePayment(
    @CurrentCaller() caller: Caller,
    @Args() args: DecidePaymentArgs,
    @Ctx() ctx: RequestContext,
  ) {
    const payment = await ctx.services.onboarding.payments.decide(caller, args);
    return ok(payment, `The payment ${paymentWords(args.status)}`);
  }

  @Rest("GET", "/payments", { tag: "Onboarding" })
  @Audit({ action: "payment.list", targetType: "member", target: noTarget })
  @Authorized(Role.ADMIN)
  @Query(() => SubmittedPaymentPage, {
    description: "Payments of one status, oldest first. Admin only.",
  })
  async payments(
    @Args() args: PaymentListArgs,
    @CurrentCaller() caller: Caller,
    @Ctx() ctx: RequestContext,
  ) {
    const page = await ctx.services.onboarding.payments.list(args, caller);
    return paged(page, "Payments");
  }
}
