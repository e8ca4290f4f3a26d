import { Field, ObjectType } from "type-graphql";

@ObjectType("PublicProfileChoice", {
  simpleResolvers: true,
  description: "What the member chose to show on the public page (all off by default)",
})
export class PublicProfileChoiceView {
  @Field() listed!: boolean;
  @Field() showPhoto!: boolean;
  @Field() showLocation!: boolean;
  @Field() showBranches!: boolean;
  @Field() showChurch!: boolean;
  @Field() showEducation!: boolean;
}
