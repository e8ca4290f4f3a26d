import { registerEnumType } from "type-graphql";

/** Apart from section.type.ts, which the stored shape (section.model.ts) must not import. */
export enum SectionType {
  list = "list",
  richtext = "richtext",
}

registerEnumType(SectionType, {
  name: "SectionType",
  description: "How a section's items are shown",
});
