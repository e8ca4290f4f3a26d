import { Field, ID, ObjectType } from "type-graphql";
import { SectionType } from "./section.enums";
import type { SectionRecord } from "./section.model";

export { SectionType };

@ObjectType("SectionItem", { simpleResolvers: true })
export class SectionItem {
  @Field()
  content!: string;
}

@ObjectType("Section", { simpleResolvers: true })
export class Section {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  title!: string | null;

  @Field(() => SectionType)
  type!: SectionType;

  @Field(() => [SectionItem])
  items!: SectionItem[];

  static from(record: SectionRecord): Section {
    return Object.assign(new Section(), {
      id: record._id,
      title: record.title ?? null,
      type: record.type,
      items: record.items.map((item) => ({ content: item.content })),
    });
  }
}
