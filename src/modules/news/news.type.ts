import { Field, ID, Int, ObjectType } from "type-graphql";
import { DateTimeScalar } from "../../graphql/date-time";
import { PageType, PayloadType } from "../../graphql/envelopes";
import { MediaKind, NewsStatus } from "./news.enums";

@ObjectType("NewsMedia", { simpleResolvers: true, description: "A picture or video of a post" })
export class NewsMedia {
  @Field(() => ID, { description: "The file's id" }) id!: string;
  @Field(() => MediaKind) kind!: MediaKind;
  @Field({ description: "Its public URL" }) fileUrl!: string;
  @Field() fileName!: string;
  @Field(() => Int) sortOrder!: number;
}

@ObjectType("TaggedMember", {
  simpleResolvers: true,
  description: "A member named in a post: what the public credential check shows, no contact",
})
export class TaggedMember {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) uniqueId!: string | null;
  @Field() fullName!: string;
}

@ObjectType("NewsPost", { simpleResolvers: true, description: "A news post or blog" })
export class NewsPost {
  @Field(() => ID) id!: string;
  @Field() title!: string;
  @Field({ description: "HTML with formatting tags only" }) caption!: string;
  @Field(() => NewsStatus) status!: NewsStatus;
  @Field(() => String, { nullable: true }) platform!: string | null;
  @Field(() => [String]) hashtags!: string[];
  @Field(() => DateTimeScalar, { nullable: true }) scheduledAt!: Date | null;
  @Field(() => DateTimeScalar, { nullable: true }) publishedAt!: Date | null;
  @Field(() => [NewsMedia]) media!: NewsMedia[];

  @Field(() => [TaggedMember], {
    description: "APPROVED members still listed; others drop out",
  })
  taggedMembers!: TaggedMember[];

  @Field(() => DateTimeScalar) createdAt!: Date;
  @Field(() => DateTimeScalar) updatedAt!: Date;
}

export const NewsPostPayload = PayloadType(NewsPost, "NewsPostPayload");
export const NewsPostPage = PageType(NewsPost, "NewsPostPage");
