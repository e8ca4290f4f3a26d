import { Field, ID, Int, ObjectType, registerEnumType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { PageType, PayloadType } from "../../graphql/envelopes";
import { DeliveryStatus } from "./webhook.model";

registerEnumType(DeliveryStatus, {
  name: "WebhookDeliveryStatus",
  description: "PENDING: due or to be retried; DELIVERED: a 2xx answer; FAILED: retries ran out",
});

@ObjectType("WebhookEndpoint", { simpleResolvers: true, description: "Where changes are sent" })
export class WebhookEndpoint {
  @Field(() => ID) id!: string;
  @Field() url!: string;
  @Field(() => [String], { description: "The event types sent to it" }) events!: string[];
  @Field() description!: string;
  @Field({ description: "False once disabled (5 days of failures, or by an administrator)" })
  enabled!: boolean;

  @Field(() => DateTimeScalar, { nullable: true }) disabledAt!: Date | null;
  @Field(() => DateTimeScalar, {
    nullable: true,
    description: "The first failure since it last answered",
  })
  failingSince!: Date | null;

  @Field(() => DateTimeScalar) createdAt!: Date;
  @Field(() => DateTimeScalar) updatedAt!: Date;
}

@ObjectType("WebhookEndpointCreated", {
  simpleResolvers: true,
  description: "A new endpoint and its signing secret, shown this once",
})
export class WebhookEndpointCreated extends WebhookEndpoint {
  @Field({ description: "The Standard Webhooks secret (whsec_…); it is not shown again" })
  secret!: string;
}

@ObjectType("WebhookAttempt", { simpleResolvers: true })
export class WebhookAttempt {
  @Field(() => DateTimeScalar) at!: Date;
  @Field(() => Int, { nullable: true, description: "The receiver's status, if it answered" })
  statusCode!: number | null;

  @Field(() => String, { nullable: true }) error!: string | null;
}

@ObjectType("WebhookDelivery", {
  simpleResolvers: true,
  description: "One change sent to one endpoint",
})
export class WebhookDelivery {
  @Field(() => ID, { description: "Also its webhook-id header, the same on every retry" })
  id!: string;

  @Field(() => ID) endpointId!: string;
  @Field() type!: string;
  @Field(() => DeliveryStatus) status!: DeliveryStatus;
  @Field({ description: "The JSON body sent" }) body!: string;
  @Field(() => Int) attemptCount!: number;
  @Field(() => [WebhookAttempt], { description: "The latest attempts, oldest first" })
  attempts!: WebhookAttempt[];

  @Field(() => DateTimeScalar, { nullable: true }) nextAttemptAt!: Date | null;
  @Field(() => DateTimeScalar, { nullable: true }) deliveredAt!: Date | null;
  @Field(() => DateTimeScalar) createdAt!: Date;
}

export const WebhookEndpointPayload = PayloadType(WebhookEndpoint, "WebhookEndpointPayload");
export const WebhookEndpointCreatedPayload = PayloadType(
  WebhookEndpointCreated,
  "WebhookEndpointCreatedPayload",
);
export const WebhookEndpointPage = PageType(WebhookEndpoint, "WebhookEndpointPage");
export const WebhookDeliveryPayload = PayloadType(WebhookDelivery, "WebhookDeliveryPayload");
export const WebhookDeliveryPage = PageType(WebhookDelivery, "WebhookDeliveryPage");
