import { Field, ID, ObjectType, registerEnumType } from "type-graphql";
import type { SectionRecord } from "./section.model";

export enum SectionType {
  list = "list",
  richtext = "richtext",
}

registerEnumType(SectionType, {
  name: "SectionType",
  description: "How a section's items are shown",
});

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
