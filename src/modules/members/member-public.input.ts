import { IsOptional, Matches, MaxLength } from "class-validator";
import { UUIDResolver } from "graphql-scalars";
import { ArgsType, Field } from "type-graphql";
import { MemberType } from "./member.enums";

@ArgsType()
export class SetMemberTypeArgs {
  @Field(() => UUIDResolver)
  id!: string;

  @Field(() => MemberType)
  memberType!: MemberType;

  @Field(() => String, {
    nullable: true,
    description: "The number on the member's badge; null clears it, absent keeps it",
  })
  @IsOptional()
  @MaxLength(40)
  @Matches(/^[\w\- /.#]*$/, { message: "badgeNumber may hold letters, digits, - / . # and spaces" })
  badgeNumber?: string | null;
}

@ArgsType()
export class PublicProfileArgs {
  @Field({ nullable: true, description: "Show the profile and list it among service chaplains" })
  listed?: boolean;

  @Field({ nullable: true, description: "Show the approved 2x2 photo" })
  showPhoto?: boolean;

  @Field({ nullable: true, description: "Show the region, province and city" })
  showLocation?: boolean;

  @Field({ nullable: true, description: "Show the preferred branches of service" })
  showBranches?: boolean;

  @Field({ nullable: true, description: "Show the church, its address and the position held" })
  showChurch?: boolean;

  @Field({ nullable: true, description: "Show the schools and studies" })
  showEducation?: boolean;
}
